/**
 * The operational endpoints kubelet and Prometheus call: `/healthz` (the process works), `/readyz`
 * (the controller's loops are healthy), `/metrics` (Prometheus text). GET and HEAD only, no request
 * body is read, nothing else is served.
 *
 * Anyone who can reach the port can call it, so it is a server for hostile clients (ops-limits.ts):
 * every answer is written synchronously from what the handlers already hold (the metrics are
 * pre-rendered), so Node's pipelining backpressure applies; a socket whose unsent answers or
 * unanswered requests pass a cap is closed; connections are capped; and the header deadline is our own
 * timer on the injected clock, because Node only sweeps `headersTimeout` every 30 s.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Clock, systemClock } from '../kube/clock.ts';
import { OPS_LIMITS, type OpsLimits } from './ops-limits.ts';

export interface OpsHandlers {
  /** null when healthy, else why not (one sentence). */
  health(): string | null;
  ready(): string | null;
  /** The metrics as last rendered (never rendered per request). */
  metrics(): { contentType: string; body: Buffer };
}

export interface ListenAddress {
  host: string | null;
  port: number;
}

/** `HOST:PORT`, `:PORT` (every interface) or `[IPv6]:PORT`; a sentence when it is none of these. */
export function parseListenAddress(value: string): ListenAddress | string {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]*)):(\d{1,5})$/.exec(value.trim());
  const port = Number(m?.[3]);
  if (!m || port > 65535)
    return `"${value}" is not a listen address for --metrics-addr: use HOST:PORT or :PORT (e.g. :8080)`;
  const host = m[1] ?? m[2] ?? '';
  return { host: host === '' ? null : host, port };
}

/** Per socket: its header deadline, and the answers handed to it that it has not taken yet. */
interface SocketState {
  deadline: unknown;
  pending: number;
  pendingBytes: number;
}

const TEXT = 'text/plain; charset=utf-8';

export class OpsServer {
  readonly #server: http.Server;
  readonly #clock: Clock;
  readonly #limits: OpsLimits;
  readonly #sockets = new Map<Socket, SocketState>();

  constructor(handlers: OpsHandlers, opts: { clock?: Clock; limits?: Partial<OpsLimits> } = {}) {
    this.#clock = opts.clock ?? systemClock;
    this.#limits = { ...OPS_LIMITS, ...opts.limits };
    this.#server = http.createServer({ maxHeaderSize: 8 << 10 }, (req, res) => {
      const state = this.#sockets.get(req.socket);
      if (!state) {
        req.socket.destroy();
        return;
      }
      // The next request's headers are due within the deadline of this one's.
      this.#arm(req.socket, state);
      const head = req.method === 'HEAD';
      const send = (
        status: number,
        type: string,
        body: Buffer | string,
        extra: Record<string, string> = {},
      ) => {
        const bytes = typeof body === 'string' ? Buffer.from(body) : body;
        state.pending++;
        state.pendingBytes += bytes.length;
        if (state.pending > this.#limits.maxPipelined || state.pendingBytes > this.#limits.maxBufferedBytes) {
          // A client that does not read what it asked for: drop it instead of holding its answers.
          req.socket.destroy();
          return;
        }
        res.once('finish', () => {
          state.pending--;
          state.pendingBytes -= bytes.length;
        });
        res.writeHead(status, {
          'Content-Type': type,
          'Content-Length': bytes.length,
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          ...extra,
        });
        res.end(head ? undefined : bytes);
      };
      if (req.method !== 'GET' && !head)
        return send(405, TEXT, 'method not allowed\n', { Allow: 'GET, HEAD' });
      const path = (req.url ?? '/').split('?')[0];
      const check = (problem: string | null) =>
        send(problem === null ? 200 : 503, TEXT, `${problem ?? 'ok'}\n`);
      if (path === '/healthz' || path === '/livez') return check(handlers.health());
      if (path === '/readyz') return check(handlers.ready());
      if (path === '/metrics') {
        const m = handlers.metrics();
        return send(200, m.contentType, m.body);
      }
      send(404, TEXT, 'not found\n');
    });
    this.#server.maxConnections = this.#limits.maxConnections;
    // Node's own timeouts stay as a second line; ours (#arm) are the ones that hold.
    this.#server.requestTimeout = this.#limits.headerTimeoutMs * 2;
    this.#server.headersTimeout = this.#limits.headerTimeoutMs;
    this.#server.keepAliveTimeout = this.#limits.headerTimeoutMs;
    this.#server.on('connection', (socket: Socket) => {
      const state: SocketState = { deadline: null, pending: 0, pendingBytes: 0 };
      this.#sockets.set(socket, state);
      this.#arm(socket, state);
      socket.once('close', () => {
        this.#clock.clearTimeout(state.deadline);
        this.#sockets.delete(socket);
      });
    });
  }

  /** A socket that has not sent a whole request header by the deadline is closed. */
  #arm(socket: Socket, state: SocketState): void {
    this.#clock.clearTimeout(state.deadline);
    state.deadline = this.#clock.setTimeout(() => socket.destroy(), this.#limits.headerTimeoutMs);
  }

  /** Open connections. */
  get connections(): number {
    return this.#sockets.size;
  }

  /** Bytes of answers written but not yet taken by their clients (what a slow reader costs us). */
  get bufferedBytes(): number {
    let sum = 0;
    for (const s of this.#sockets.values()) sum += s.pendingBytes;
    return sum;
  }

  listen(addr: ListenAddress): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      const done = () => {
        this.#server.off('error', reject);
        resolve(this.#server.address() as AddressInfo);
      };
      if (addr.host === null) this.#server.listen(addr.port, done);
      else this.#server.listen(addr.port, addr.host, done);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
      for (const socket of this.#sockets.keys()) socket.destroy();
    });
  }
}
