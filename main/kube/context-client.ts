/**
 * One context's HTTP client: `request()` for ordinary calls and `stream()` for watches, over node:https
 * so we own timeouts, aborts and byte limits. Credentials are applied per request (auth-options.ts) and
 * never logged or put into errors; a 401 makes the next request fetch fresh exec credentials.
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { ContextAuth } from './auth-options.ts';
import { type Clock, systemClock } from './clock.ts';
import { classifyNetworkError, errorFromResponse, markProxied } from './error-classify.ts';
import { KubeError } from './errors.ts';
import type { ResolvedContext } from './kubeconfig-types.ts';
import { openStream, type StreamHandle, type StreamHandlers, type Transport } from './stream-request.ts';
import { sharedTurn } from './turns.ts';

export type { StreamHandle, StreamHandlers } from './stream-request.ts';

export interface ContextClientOptions {
  clock?: Clock;
  /** Whole-request limit for request(); time to response headers for stream(). */
  requestTimeoutMs?: number;
  execTimeoutMs?: number;
  userAgent?: string;
  maxBodyBytes?: number;
}

/** Of a non-2xx answer only this much is read: a Status is small, and the rest is a hostile server's. */
const ERROR_BODY_BYTES = 64 << 10;
/**
 * Inflated output per 'data' event of a gzipped answer (zlib's default is 16 KiB). A 5,000-node list is
 * ~64 MB inflated: at 16 KiB that is ~4,000 callbacks on the loop's thread, and a cold `gpu-fleet scan`
 * listed in ~0.95 s; at 256 KiB in ~0.7 s (in-process list of large:5000, 2026-12-04). The chunks are
 * concatenated and dropped once the answer ends, so the larger size holds nothing longer.
 */
const INFLATE_CHUNK_BYTES = 256 << 10;
/** Answers longer than this parse in a turn of their own (a few ms of JSON.parse and more). */
const PARSE_ALONE_CHARS = 256 << 10;

export interface KubeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RequestInit {
  body?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** A smaller answer limit for this request than the client's (on-demand reads are bounded tighter). */
  maxBodyBytes?: number;
  /** Cancels this request alone (an 'aborted' KubeError), as close() cancels all of them. */
  signal?: AbortSignal;
  /** Handed the first `bytes` bytes of a 2xx body (decoded) once they have arrived, before the rest. */
  peek?: BodyPeek;
}

export interface BodyPeek {
  bytes: number;
  read: (head: Buffer) => void;
}

type Listener = Parameters<NodeJS.EventEmitter['on']>[1];
const ignoreLateError = (): void => undefined;

export class ContextClient {
  readonly #auth: ContextAuth;
  readonly #url: URL;
  readonly #agent: http.Agent;
  readonly #clock: Clock;
  readonly #opts: ContextClientOptions;
  /** Cancellers of requests and streams in flight, so close() leaves no socket or timer behind. */
  readonly #inflight = new Set<() => void>();
  readonly #transport: Transport;

  /** Throws a config-error KubeError when the context cannot be used as written. */
  constructor(
    readonly context: ResolvedContext,
    opts: ContextClientOptions = {},
  ) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#auth = new ContextAuth(context, this.#clock, opts.execTimeoutMs);
    this.#url = new URL(this.#auth.server);
    const secure = this.#url.protocol === 'https:';
    this.#agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.#transport = {
      clock: this.#clock,
      server: this.#auth.server,
      timeoutMs: opts.requestTimeoutMs ?? 30_000,
      open: (method, path, headers) => this.#open(method, path, headers),
      track: (cancel) => {
        this.#inflight.add(cancel);
        return () => this.#inflight.delete(cancel);
      },
      unauthorized: () => this.#auth.invalidate(),
    };
  }

  get server(): string {
    return this.#auth.server;
  }

  request(method: string, path: string, init: RequestInit = {}): Promise<KubeResponse> {
    return new Promise((resolve, reject) => {
      const limit = init.maxBodyBytes ?? this.#opts.maxBodyBytes ?? 256 << 20;
      let timer: unknown = null;
      let req: http.ClientRequest | null = null;
      let settled = false;
      // Our listeners on the request, its response and the inflater, taken off once settled: Node's https
      // agent keeps the first request of each kept-alive socket reachable for as long as the socket lives
      // (its TLS 'session' listener's scope holds it), and through our listeners this scope, its promise
      // and so the answer (a 1 MB page of pods and its parsed items) would stay with it.
      const attached: [NodeJS.EventEmitter, string, Listener][] = [];
      const listen = (on: NodeJS.EventEmitter, event: string, fn: Listener) => {
        on.on(event, fn);
        attached.push([on, event, fn]);
      };
      const settle = () => {
        settled = true;
        this.#inflight.delete(cancel);
        this.#clock.clearTimeout(timer);
        init.signal?.removeEventListener('abort', cancel);
        for (const [on, event, fn] of attached.splice(0)) {
          on.off(event, fn);
          // A late error (the socket reset after the answer) must still have a listener.
          if (event === 'error') on.on('error', ignoreLateError);
        }
      };
      const fail = (e: KubeError) => {
        settle();
        req?.destroy();
        reject(e);
      };
      const cancel = () => fail(new KubeError('aborted', 'The request was cancelled.'));
      if (init.signal?.aborted) return cancel();
      this.#inflight.add(cancel);
      init.signal?.addEventListener('abort', cancel, { once: true });
      timer = this.#clock.setTimeout(
        () => {
          // Still waiting for credentials: the exec plugin is what did not answer, not the server.
          const plugin = req === null ? this.#auth.waitingOnPlugin : null;
          fail(
            plugin !== null
              ? new KubeError('exec-plugin', `exec plugin "${plugin}" did not answer in time.`)
              : new KubeError('timeout', `${this.#url.host} did not answer in time.`),
          );
        },
        init.timeoutMs ?? this.#opts.requestTimeoutMs ?? 30_000,
      );
      this.#open(method, path, { ...init.headers, 'Accept-Encoding': 'gzip' }, init.body)
        .then((r) => {
          // Cancelled while the credentials were fetched: the request is dropped unsent (its
          // "socket hang up" has nobody left to tell).
          if (settled) return void r.on('error', () => undefined).destroy();
          req = r;
          listen(r, 'error', (err: Error) => fail(classifyNetworkError(err, this.server)));
          listen(r, 'response', (res: http.IncomingMessage) => {
            if (res.statusCode === 401) this.#auth.invalidate();
            const gz = res.headers['content-encoding'] === 'gzip';
            const src = gz ? res.pipe(zlib.createGunzip({ chunkSize: INFLATE_CHUNK_BYTES })) : res;
            const parts: Buffer[] = [];
            let size = 0;
            const ok = (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) <= 299;
            let peek = ok ? init.peek : undefined;
            listen(src, 'data', (d: Buffer) => {
              if (!ok) {
                // An error answer: keep a bounded head, drain the rest without storing it.
                if (size < ERROR_BODY_BYTES) parts.push(d.subarray(0, ERROR_BODY_BYTES - size));
                size += d.length;
                return;
              }
              size += d.length;
              if (size > limit)
                fail(
                  new KubeError(
                    'protocol',
                    `The answer from ${this.#url.host} is larger than ${limit} bytes.`,
                  ),
                );
              else {
                parts.push(d);
                if (peek !== undefined && size >= peek.bytes) {
                  const { read, bytes } = peek;
                  peek = undefined;
                  read(Buffer.concat(parts).subarray(0, bytes));
                }
              }
            });
            listen(src, 'error', (err: Error) => fail(classifyNetworkError(err, this.server)));
            listen(res, 'aborted', () =>
              fail(new KubeError('unreachable', `The connection to ${this.#url.host} was cut off.`)),
            );
            listen(src, 'end', () => {
              settle();
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: Buffer.concat(parts).toString('utf8'),
              });
            });
          });
          r.end(init.body);
        })
        .catch((e: unknown) => fail(e instanceof KubeError ? e : classifyNetworkError(e, this.server)));
    });
  }

  /** A GET whose JSON answer is returned parsed; non-2xx and bad JSON become KubeErrors. */
  async getJson(
    path: string,
    what: string,
    timeoutMs?: number,
    more: Pick<RequestInit, 'signal' | 'peek'> = {},
  ): Promise<unknown> {
    const res = await this.request('GET', path, {
      ...more,
      headers: { Accept: 'application/json' },
      timeoutMs,
    });
    if (res.status < 200 || res.status > 299)
      throw errorFromResponse(res.status, res.body, res.headers, what, this.server);
    // A large answer (a 1.3 MB page of nodes) parses in a turn of its own, one at a time (turns.ts).
    if (res.body.length > PARSE_ALONE_CHARS) await sharedTurn();
    try {
      return JSON.parse(res.body);
    } catch {
      throw new KubeError(
        'protocol',
        `${this.#url.host} did not answer like a Kubernetes API server while ${what} (bad JSON).`,
      );
    }
  }

  /** Opens a streaming GET; resolves once a 200 arrives, rejects with a KubeError otherwise. */
  stream(path: string, handlers: StreamHandlers, what: string): Promise<StreamHandle> {
    return openStream(this.#transport, path, handlers, what);
  }

  async #open(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<http.ClientRequest> {
    const auth = await this.#auth.options();
    const base = this.#url.pathname.replace(/\/$/, '');
    const secure = this.#url.protocol === 'https:';
    const options: https.RequestOptions = {
      protocol: this.#url.protocol,
      hostname: this.#url.hostname.replace(/^\[|\]$/g, ''),
      port: this.#url.port || (secure ? 443 : 80),
      path: base + path,
      method,
      agent: auth.agent ?? this.#agent,
      headers: {
        'User-Agent': this.#opts.userAgent ?? 'gpu-fleet',
        ...auth.headers,
        ...headers,
        ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }),
      },
    };
    if (secure) {
      Object.assign(options, { ca: auth.ca, cert: auth.cert, key: auth.key, servername: auth.servername });
      if (auth.rejectUnauthorized === false) options.rejectUnauthorized = false;
    }
    const req = (secure ? https : http).request(options);
    // Errors of a proxied request are told apart from the API server's (error-classify.ts).
    const proxy = auth.agent ? this.#auth.proxyUrl : null;
    if (proxy !== null) req.prependListener('error', (err) => markProxied(err, proxy));
    return req;
  }

  /**
   * Closes the kept-alive connections no request is using, so the next request opens a new one: after a
   * watch went silent, an idle connection may be as dead as the watch's was (a NAT that forgot them both).
   */
  dropIdleConnections(): void {
    for (const sockets of Object.values(this.#agent.freeSockets)) for (const s of sockets ?? []) s.destroy();
  }

  /** Cancels every request and stream in flight and closes the kept-alive connections. */
  close(): void {
    for (const cancel of [...this.#inflight]) cancel();
    this.#agent.destroy();
  }
}
