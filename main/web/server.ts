/**
 * The loopback bridge of browser mode: serves the renderer and the typed contract over HTTP on
 * 127.0.0.1 only — invokes as `POST /api/invoke/<channel>` (JSON argument array), pushes as
 * server-sent events on `/api/events`. Every request passes the guard (Host, Origin, token).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { dispatchInvoke, type FleetHost } from '../fleet/host.ts';
import { COOKIE, checkRequest } from './guard.ts';
import { readStatic } from './static-files.ts';

const MAX_BODY = 64 * 1024;
const HEARTBEAT_MS = 15_000;
/** The renderer's CSP, also as a header: browsers ignore `frame-ancestors` in a <meta> tag. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const SECURITY_HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export interface WebBridgeOptions {
  host: FleetHost;
  staticDir: string;
  port?: number;
  token?: string;
}

export interface WebBridge {
  /** The URL to open, with the session token. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': 'no-store' }).end(body);
}

export async function startWebBridge(options: WebBridgeOptions): Promise<WebBridge> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const staticDir = path.resolve(options.staticDir);
  const streams = new Set<http.ServerResponse>();
  let port = 0;

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
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
    if (!verdict.ok)
      return send(res, verdict.status, 'text/plain; charset=utf-8', `Refused: ${verdict.reason}.`);
    if (verdict.via === 'query' && req.method === 'GET' && !url.pathname.startsWith('/api/')) {
      // Trade the URL token for a cookie, then drop it from the address bar.
      res.writeHead(302, {
        ...SECURITY_HEADERS,
        'set-cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        location: url.pathname,
      });
      return res.end();
    }
    if (url.pathname.startsWith('/api/invoke/') && req.method === 'POST') {
      let args: unknown;
      try {
        args = JSON.parse((await readBody(req)) || '[]');
      } catch (error) {
        return send(
          res,
          400,
          'application/json',
          JSON.stringify({ error: `bad request body: ${String(error)}` }),
        );
      }
      const result = await dispatchInvoke(
        options.host.handlers,
        url.pathname.slice('/api/invoke/'.length),
        args,
      );
      if (result.ok)
        return send(res, 200, 'application/json', JSON.stringify({ value: result.value ?? null }));
      return send(res, result.status, 'application/json', JSON.stringify({ error: result.error }));
    }
    if (url.pathname === '/api/events' && req.method === 'GET') {
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (req.method !== 'GET') return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed');
    const file = await readStatic(staticDir, url.pathname);
    if (file.status === 200) return send(res, 200, file.type, file.body);
    return send(res, file.status, 'text/plain; charset=utf-8', file.body);
  });

  const unsubscribe = options.host.onPush((channel, payload) => {
    const frame = `event: ${channel}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const stream of streams) stream.write(frame);
  });
  const heartbeat = setInterval(() => {
    for (const stream of streams) stream.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      unsubscribe();
      clearInterval(heartbeat);
      for (const stream of streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
