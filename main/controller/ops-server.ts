/**
 * The operational endpoints kubelet and Prometheus call: `/healthz` (the process works), `/readyz`
 * (the node cache has been synced once), `/metrics` (Prometheus text). GET and HEAD only, no request
 * body is read, nothing else is served.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OpsHandlers {
  /** null when healthy, else why not (one sentence). */
  health(): string | null;
  ready(): string | null;
  metrics(): Promise<{ contentType: string; body: string }>;
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

function send(res: http.ServerResponse, status: number, type: string, body: string, head: boolean): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(head ? undefined : body);
}

export class OpsServer {
  readonly #server: http.Server;

  constructor(handlers: OpsHandlers) {
    this.#server = http.createServer((req, res) => {
      const head = req.method === 'HEAD';
      if (req.method !== 'GET' && !head) {
        res.setHeader('Allow', 'GET, HEAD');
        send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', false);
        return;
      }
      const path = (req.url ?? '/').split('?')[0];
      const check = (problem: string | null) =>
        send(res, problem === null ? 200 : 503, 'text/plain; charset=utf-8', `${problem ?? 'ok'}\n`, head);
      if (path === '/healthz' || path === '/livez') return check(handlers.health());
      if (path === '/readyz') return check(handlers.ready());
      if (path === '/metrics') {
        handlers
          .metrics()
          .then((m) => send(res, 200, m.contentType, m.body, head))
          .catch((e: unknown) =>
            send(res, 500, 'text/plain; charset=utf-8', `metrics failed: ${String(e)}\n`, head),
          );
        return;
      }
      send(res, 404, 'text/plain; charset=utf-8', 'not found\n', head);
    });
    // A scrape or probe that dawdles must not hold a socket for ever.
    this.#server.requestTimeout = 10_000;
    this.#server.headersTimeout = 5_000;
    this.#server.keepAliveTimeout = 5_000;
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
    });
  }
}
