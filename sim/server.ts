// The HTTPS server: request wrapper (latency, failures, logging, errors), restart, connection tracking.
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
  status: number;
  bytes: number;
  user: string;
}

export type ControlHandler = (ctx: Ctx) => Promise<void>;

export class SimServer {
  readonly log: LogEntry[] = [];
  failures: { count: number; status: number } = { count: 0, status: 500 };
  port = 0;
  private server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly core: Core,
    tls: TlsMaterial,
    private readonly control: ControlHandler,
  ) {
    this.server = createServer(
      { cert: tls.certPem, key: tls.keyPem, ALPNProtocols: ['http/1.1'] },
      (req, res) => {
        void this.handle(req, res);
      },
    );
    this.server.on('secureConnection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.server.keepAliveTimeout = 60_000;
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
    const url = new URL(req.url ?? '/', 'https://sim');
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
    const isControl = ctx.path.startsWith('/sim/control/');
    res.on('close', () => {
      if (!isControl)
        this.log.push({
          method: ctx.method,
          path: req.url ?? '',
          status: res.statusCode,
          bytes,
          user: ctx.user.name,
        });
      if (this.log.length > 100_000) this.log.splice(0, 50_000);
    });
    try {
      if (this.core.latencyMs > 0 && !isControl) await new Promise((r) => setTimeout(r, this.core.latencyMs));
      ctx.user = this.core.auth.authenticate(req.headers.authorization);
      if (isControl) {
        this.requireAdmin(ctx.user);
        await this.control(ctx);
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
