/**
 * The loopback bridge of browser mode: serves the renderer and the typed contract over HTTP on
 * 127.0.0.1 only — invokes as `POST /api/invoke/<channel>` (JSON argument array), pushes as
 * server-sent events on `/api/events` (fleet frames with the id `<epoch>:<seq>`: see fleet-frames.ts).
 * Every request passes the guard (Host, Origin, token).
 * Every request is untrusted: a bad target is a 400, a body past 64 KiB a 413, and whatever a handler
 * throws or rejects with becomes a 500 with one sentence; nothing a client sends can end the process.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ErrorInfo, ErrorKind } from '../../common/errors.ts';
import type { Words } from '../../common/words.ts';
import { dispatchInvoke, type FleetHost } from '../fleet/host.ts';
import { type Clock, systemClock } from '../kube/clock.ts';
import { FleetFrames } from './fleet-frames.ts';
import { checkRequest, cookieName } from './guard.ts';
import { refusedPage } from './refused-page.ts';
import { MAX_BODY, parseTarget, readBody } from './request.ts';
import { DEFAULT_SSE_LIMITS, SseClient, type SseLimits } from './sse.ts';
import { RENDERER_CSP, readStatic } from './static-files.ts';

const HEARTBEAT_MS = 15_000;
/** After a 413 the rest of the body is read and discarded for this long, then the connection is closed. */
const DISCARD_MS = 5_000;
const SECURITY_HEADERS = {
  'content-security-policy': RENDERER_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
const TEXT = 'text/plain; charset=utf-8';

/** A failed invoke's body: the failure keeps its kind across HTTP, as it does across Electron's IPC. */
function failure(kind: ErrorKind, message: string, words?: Words): string {
  return JSON.stringify({ error: { kind, message, ...(words && { words }) } satisfies ErrorInfo });
}

export interface WebBridgeOptions {
  host: FleetHost;
  staticDir: string;
  port?: number;
  token?: string;
  /** Times slow event-stream clients (tests pass a ManualClock). */
  clock?: Clock;
  sseLimits?: SseLimits;
  /** How long a request's headers may take to arrive (default 10 s; tests shorten it). */
  headersTimeoutMs?: number;
}

/**
 * Node's defaults suit no server that takes slow clients: headers may take 60 s, and that is only
 * checked every 30 s. A page of ours sends its headers at once; an event stream is a response, which
 * these timeouts do not cut.
 */
const HEADERS_TIMEOUT_MS = 10_000;
const MAX_CONNECTIONS = 256;

export interface WebBridge {
  /** The URL to open, with the session token. */
  url: string;
  port: number;
  token: string;
  /** Bytes held for each connected event-stream client (socket buffer plus waiting frames). */
  streamBytes(): number[];
  /** Cuts every event stream as a lost network would (tests: the window reconnects and catches up). */
  cutStreams(): void;
  close(): Promise<void>;
}

function send(
  res: http.ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  res
    .writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': 'no-store', ...extra })
    .end(body);
}

/**
 * A path of ours to redirect to: `//evil.example/` or `/\evil.example/` in a Location is another host
 * to a browser (protocol-relative), so the leading slashes and backslashes fold into one.
 */
export function ownPath(pathname: string): string {
  return `/${pathname.replace(/^[/\\]+/, '')}`;
}

/** The last word on a request whose handler failed: a 500 if nothing was sent yet, else a cut connection. */
function failed(res: http.ServerResponse): void {
  if (res.headersSent) res.destroy();
  else send(res, 500, TEXT, 'The GPU Fleet server could not answer this request.', { connection: 'close' });
}

export async function startWebBridge(options: WebBridgeOptions): Promise<WebBridge> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const staticDir = path.resolve(options.staticDir);
  const clock = options.clock ?? systemClock;
  const streams = new Set<SseClient>();
  const fleet = new FleetFrames(options.host);
  /** The id of the last fleet frame each stream was sent (so a connection is not sent one twice). */
  const fleetIds = new WeakMap<SseClient, string>();
  let port = 0;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = parseTarget(req.url);
    if (url === null)
      return send(res, 400, TEXT, 'Bad request: the request target is not a path.', { connection: 'close' });
    const verdict = checkRequest(
      {
        host: req.headers.host,
        origin: req.headers.origin,
        cookie: req.headers.cookie,
        queryToken: url.searchParams.get('token'),
      },
      port,
      token,
    );
    if (!verdict.ok) {
      // A person at the address bar gets how to get back in, in their language; the page's own
      // requests (/api/…) get the status, which the page words itself.
      if (verdict.status === 401 && req.method === 'GET' && !url.pathname.startsWith('/api/'))
        return send(res, 401, 'text/html; charset=utf-8', refusedPage(req.headers['accept-language']));
      return send(res, verdict.status, TEXT, `Refused: ${verdict.reason}.`);
    }
    if (verdict.via === 'query' && req.method === 'GET' && !url.pathname.startsWith('/api/')) {
      // Trade the URL token for a cookie, then drop it from the address bar.
      res.writeHead(302, {
        ...SECURITY_HEADERS,
        'set-cookie': `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        location: ownPath(url.pathname),
      });
      res.end();
      return;
    }
    if (url.pathname.startsWith('/api/invoke/') && req.method === 'POST') {
      const body = await readBody(req);
      if (!body.ok) {
        if (body.reason === 'aborted') return void res.destroy();
        res.on('finish', () => clock.setTimeout(() => req.socket.destroy(), DISCARD_MS));
        return send(
          res,
          413,
          'application/json',
          failure('bad-request', `request body too large (the limit is ${MAX_BODY} bytes)`),
          { connection: 'close' },
        );
      }
      let args: unknown;
      try {
        args = JSON.parse(body.text || '[]');
      } catch (error) {
        return send(
          res,
          400,
          'application/json',
          failure('bad-request', `bad request body: ${String(error)}`),
        );
      }
      const result = await dispatchInvoke(
        options.host.handlers,
        url.pathname.slice('/api/invoke/'.length),
        args,
      );
      if (result.ok)
        return send(res, 200, 'application/json', JSON.stringify({ value: result.value ?? null }));
      return send(res, result.status, 'application/json', failure(result.kind, result.error, result.words));
    }
    if (url.pathname === '/api/events' && req.method === 'GET') {
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      const client = new SseClient(res, clock, options.sseLimits ?? DEFAULT_SSE_LIMITS, () => fleet.whole());
      streams.add(client);
      res.on('close', () => streams.delete(client));
      client.send('', ': connected\n\n');
      // A window that holds an older snapshot than the stream gets a whole one first (fleet-frames.ts).
      // The page's own reconnection (web-stream.ts opens a new EventSource, which cannot set the
      // header) names its place as `?lastEventId=`, as EventSource polyfills do.
      const lastEventId = req.headers['last-event-id'] ?? url.searchParams.get('lastEventId') ?? undefined;
      fleet.catchUp(
        () => fleetIds.get(client) ?? lastEventId,
        (channel, frame) => client.send(channel, frame),
      );
      return;
    }
    if (req.method !== 'GET') return send(res, 405, TEXT, 'method not allowed');
    const file = await readStatic(staticDir, url.pathname);
    if (file.status === 200) return send(res, 200, file.type, file.body);
    return send(res, file.status, TEXT, file.body);
  };

  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = http.createServer(
    {
      headersTimeout,
      requestTimeout: headersTimeout * 3,
      // The sweep that enforces both: Node's default looks every 30 s.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, headersTimeout / 4)),
    },
    (req, res) => {
      handle(req, res).catch(() => failed(res));
    },
  );
  server.maxConnections = MAX_CONNECTIONS;
  // A request the HTTP parser refuses (bad request line, huge headers, headers still incomplete after
  // Node's 60 s headersTimeout — a slowloris): answer and close, never throw.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });

  const unsubscribe = options.host.onPush((channel, payload) => {
    const ours = fleet.frame(channel, payload);
    const frame = ours?.frame ?? `event: ${channel}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const stream of streams) {
      stream.send(channel, frame);
      if (ours) fleetIds.set(stream, ours.id);
    }
  });
  let heartbeat: unknown = null;
  const beat = () => {
    for (const stream of streams) stream.heartbeat();
    heartbeat = clock.setTimeout(beat, HEARTBEAT_MS);
  };
  heartbeat = clock.setTimeout(beat, HEARTBEAT_MS);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    streamBytes: () => [...streams].map((s) => s.bufferedBytes),
    cutStreams: () => {
      for (const stream of streams) stream.drop();
    },
    close: async () => {
      unsubscribe();
      clock.clearTimeout(heartbeat);
      for (const stream of streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
