// The HTTPS server: request wrapper (latency, failures, logging, errors), restart, connection tracking.
// Like Go's net/http in front of a real kube-apiserver, a request target it cannot parse (a malformed
// `%` escape, no leading `/`) gets a plain-text 400 and a closed connection (`//[` is just a path, as in
// Go: it reaches authorization and the 404 like any other), and nothing a
// handler throws or rejects with escapes: it is a 500 Status, or a cut connection once headers are out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { ANONYMOUS } from './auth.ts';
import type { Core } from './core.ts';
import { dispatch } from './dispatch.ts';
import { ApiError, statusBody } from './errors.ts';
import type { Ctx } from './http.ts';
import { sendJson } from './http.ts';
import type { TlsMaterial } from './tls.ts';
import type { User } from './types.ts';

export interface LogEntry {
  method: string;
  path: string;
  /** The HTTP status; 0 when the sim cut the connection or never answered (a partition). */
  status: number;
  bytes: number;
  user: string;
  /** The credential that authenticated: a ServiceAccount token's "JTI=…", else the user name. */
  credential: string;
  userAgent: string;
  /** The sim clock (epoch ms) when the request arrived. */
  at: number;
}

const BAD_REQUEST = '400 Bad Request';
const TOO_LARGE = '431 Request Header Fields Too Large';
const MAX_HEADER_BYTES = 1 << 20;
const PLAIN_CLOSE = '\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n';
/** How long Go's server lingers after answering 431 before it closes (net/http rstAvoidanceDelay). */
const RST_AVOIDANCE_MS = 500;

/** The path and query of an origin-form target (`/…`), or null when Go's url.ParseRequestURI would refuse it. */
function requestUrl(target: string | undefined): URL | null {
  if (target === undefined || !target.startsWith('/')) return null;
  try {
    // Go refuses a malformed escape (`%zz`, a lone `%`); a well-formed one that is not UTF-8 passes.
    if (/%(?![0-9A-Fa-f]{2})/.test(target.split('?')[0] ?? '')) return null;
    return new URL(`https://sim${target}`);
  } catch {
    return null;
  }
}

/** Go's own answer to a request it cannot parse: plain text, the status line as the body, connection closed. */
function badRequest(res: ServerResponse, code: number, text: string): void {
  res.shouldKeepAlive = false;
  res
    .writeHead(code, {
      'Content-Type': 'text/plain; charset=utf-8',
      Connection: 'close',
      'Content-Length': String(Buffer.byteLength(text)),
    })
    .end(text);
}

export type ControlHandler = (ctx: Ctx) => Promise<void>;

/** How long the server waits on a client; the real ones by default (KUBE_APISERVER_TIMEOUTS). */
export interface ServerTimeouts {
  /** Headers not complete by then: the connection is closed without an answer. */
  headersMs: number;
  /** The whole request (headers and body) not received by then: closed too. */
  requestMs: number;
  /** A kept-alive connection idle that long between requests is closed. */
  idleMs: number;
}

/**
 * A kube-apiserver's: its secure serving (k8s.io/apiserver secure_serving.go) builds its http.Server with
 * ReadHeaderTimeout 32 s ("just shy of requestTimeoutUpperBound") and IdleTimeout 90 s, and no
 * ReadTimeout; a request's body is bounded by the handler's --request-timeout (60 s by default), which a
 * real server answers with a 504 Status and Node's requestTimeout here with a closed connection. A watch
 * is not held to it: Node's timers stop once the request is in, and a watch's request has no body.
 * (Node's own defaults would be 60 s, 300 s and 5 s.)
 */
export const KUBE_APISERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 32_000,
  requestMs: 60_000,
  idleMs: 90_000,
};

export class SimServer {
  readonly log: LogEntry[] = [];
  failures: { count: number; status: number } = { count: 0, status: 500 };
  port = 0;
  private server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly held = new Map<Socket, string>();
  /** Connections made half-open by freezeConnections(): open, but nothing goes either way. */
  private readonly frozen = new WeakSet<Socket>();
  /** Connections answered 431 and waiting out the linger before their hard close. */
  private readonly lingering = new WeakSet<object>();
  /** Who is sending the request in flight on each connection (credential and user name): watches, mostly. */
  private readonly inflight = new Map<Socket, [string, string]>();

  constructor(
    private readonly core: Core,
    tls: TlsMaterial,
    /** The HTTP face of the controls (POST /sim/control/<verb>); null: that path is an ordinary 404. */
    private readonly control: ControlHandler | null,
    timeouts: ServerTimeouts = KUBE_APISERVER_TIMEOUTS,
  ) {
    this.server = createServer(
      {
        cert: tls.certPem,
        key: tls.keyPem,
        ALPNProtocols: ['http/1.1'],
        // Go's http.DefaultMaxHeaderBytes (1 MiB), where Node's default would refuse at 16 KiB.
        maxHeaderSize: MAX_HEADER_BYTES,
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        keepAliveTimeout: timeouts.idleMs,
        // Node checks the first two only this often (30 s by default, coarse against 32 s).
        connectionsCheckingInterval: Math.max(50, Math.min(1_000, timeouts.headersMs / 4)),
      },
      (req, res) => {
        this.handle(req, res).catch(() => {
          if (res.headersSent) res.destroy();
          else badRequest(res, 500, '500 Internal Server Error');
        });
      },
    );
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      // Node's parser may report the same connection again for the bytes that follow (a 2 MiB header
      // arrives in many chunks): it was answered once, and the linger below owns its close.
      if (this.lingering.has(socket)) return;
      // Go answers nothing to a client too slow with its headers: it just closes the connection.
      if (!socket.writable || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return socket.destroy();
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? TOO_LARGE : BAD_REQUEST;
      socket.end(`HTTP/1.1 ${status}${PLAIN_CLOSE}${status}`);
      if (status !== TOO_LARGE) return;
      // Go's server answers a too-large header, half-closes and waits 500 ms before the hard close
      // (closeWriteAndWait, its rstAvoidanceDelay), so a client still sending reads the answer rather than
      // a reset; what the client sends meanwhile is read and dropped here.
      this.lingering.add(socket);
      socket.on('data', () => undefined);
      socket.resume();
      const linger = setTimeout(() => socket.destroy(), RST_AVOIDANCE_MS);
      socket.once('close', () => clearTimeout(linger));
    });
    this.server.on('secureConnection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        this.port = typeof addr === 'object' && addr ? addr.port : port;
        resolve(this.port);
      });
    });
  }

  /** TLS connections open now (kept-alive idle ones included). */
  get openConnections(): number {
    return this.sockets.size;
  }

  /**
   * Cuts the connections with a request of `key` (a credential or user name) in flight, watches included.
   * Idle kept-alive connections stay: the next request on one is refused by the partition check.
   */
  cutClient(key: string): void {
    // A half-open connection (freezeConnections) is already dead to both sides: it stays as it is.
    for (const [s, who] of this.inflight) if (who.includes(key) && !this.frozen.has(s)) s.destroy();
  }

  /** Cuts the connections a 'timeout' partition of `key` is holding. */
  releaseHeld(key: string): void {
    for (const [s, k] of this.held) {
      if (k !== key) continue;
      s.destroy();
      this.held.delete(s);
    }
  }

  /**
   * Every connection open now stops answering without closing, as when a NAT forgets a connection or the
   * network under it changes: nothing more is written to it (watch events, bookmarks, the end at
   * timeoutSeconds) and nothing the client sends on it is read, while the socket stays open. New connections
   * are served as usual. Returns how many were frozen.
   */
  freezeConnections(): number {
    let n = 0;
    for (const s of this.sockets) {
      if (this.frozen.has(s)) continue;
      this.frozen.add(s);
      n++;
      s.pause();
      s.write = (() => true) as typeof s.write;
      s.end = (() => s) as typeof s.end;
    }
    return n;
  }

  dropConnections(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.dropConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req.url);
    if (url === null) {
      badRequest(res, 400, BAD_REQUEST);
      return;
    }
    const ctx: Ctx = {
      req,
      res,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      user: ANONYMOUS,
    };
    let bytes = 0;
    const write = res.write.bind(res);
    const countChunk = (c: unknown) => {
      if (typeof c === 'string' || Buffer.isBuffer(c)) bytes += Buffer.byteLength(c as string);
    };
    res.write = ((c: unknown, ...rest: never[]) => {
      countChunk(c);
      return write(c as string, ...rest);
    }) as typeof res.write;
    const end = res.end.bind(res);
    res.end = ((c?: unknown, ...rest: never[]) => {
      if (c !== undefined && typeof c !== 'function') countChunk(c);
      return end(c as string, ...rest);
    }) as typeof res.end;
    const isControl = this.control !== null && ctx.path.startsWith('/sim/control/');
    const at = this.core.now();
    let cut = false;
    res.on('close', () => {
      if (!isControl)
        this.log.push({
          method: ctx.method,
          path: req.url ?? '',
          status: cut ? 0 : res.statusCode,
          bytes,
          user: ctx.user.name,
          credential: ctx.user.credential ?? ctx.user.name,
          userAgent: String(req.headers['user-agent'] ?? ''),
          at,
        });
      if (this.log.length > 100_000) this.log.splice(0, 50_000);
    });
    try {
      if (this.core.latencyMs > 0 && !isControl) await new Promise((r) => setTimeout(r, this.core.latencyMs));
      ctx.user = this.core.authenticate(req.headers.authorization);
      const sock = req.socket;
      this.inflight.set(sock, [ctx.user.credential ?? ctx.user.name, ctx.user.name]);
      res.once('close', () => this.inflight.delete(sock));
      if (isControl && this.control !== null) {
        this.requireAdmin(ctx.user);
        await this.control(ctx);
        return;
      }
      const key = this.core.partitions.has(ctx.user.credential ?? '')
        ? (ctx.user.credential ?? '')
        : ctx.user.name;
      const partition = this.core.partitions.get(key);
      if (partition && !isControl) {
        if (partition === '503') throw new ApiError(503, statusBody(503, 'simulated partition (HTTP 503)'));
        cut = true;
        // 'reset' cuts the connection now; 'timeout' holds it until healed (then cuts it) or the client gives up.
        if (partition === 'reset') req.socket.destroy();
        else {
          const sock = req.socket;
          this.held.set(sock, key);
          sock.once('close', () => this.held.delete(sock));
        }
        return;
      }
      if (this.failures.count > 0) {
        this.failures.count -= 1;
        const code = this.failures.status;
        const msg = code === 429 ? 'storage is (re)initializing' : `simulated failure (HTTP ${code})`;
        throw new ApiError(
          code,
          statusBody(code, msg),
          code === 429 || code === 503 ? { 'Retry-After': '1' } : {},
        );
      }
      await dispatch(this.core, ctx);
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof ApiError)
        sendJson(ctx, e.code, e.body, e.code === 403 || e.code === 404 ? e.headers : e.headers);
      else sendJson(ctx, 500, statusBody(500, `Internal error occurred: ${(e as Error).message}`));
    }
  }

  private requireAdmin(u: User): void {
    if (u.name !== 'sim-admin') {
      throw new ApiError(
        403,
        statusBody(403, `forbidden: User "${u.name}" cannot use the simulator control endpoint`),
      );
    }
  }
}
