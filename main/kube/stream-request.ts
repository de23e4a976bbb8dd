/**
 * A streaming GET (a watch) on top of a context's transport: resolves once the server answers 200, then
 * hands over the body line by line. The caller's abort() is final: no line, byte or end callback after it,
 * not even for lines already split from the chunk being read. A line longer than MAX_WATCH_LINE_BYTES, or a
 * stream that ends in the middle of a line, ends the stream with a protocol error.
 */
import type http from 'node:http';
import type { Clock } from './clock.ts';
import { classifyNetworkError, errorFromResponse } from './error-classify.ts';
import { KubeError } from './errors.ts';
import { LineSplitter } from './line-splitter.ts';

/**
 * One watch event is one object, and etcd refuses objects over 1.5 MiB: a line past this is not an event
 * (a server that never sends a newline would otherwise grow memory until the process dies).
 */
export const MAX_WATCH_LINE_BYTES = 8 << 20;

/**
 * TCP keep-alive on a watch's socket after this much idle time: the OS then probes the peer, so a server
 * that vanished (power cut, a NAT that dropped the connection) ends the watch with an error instead of
 * leaving it open forever. A quiet watch is idle for minutes; the probes cost a few bytes.
 */
export const WATCH_KEEPALIVE_MS = 15_000;

export interface StreamHandlers {
  /** Any bytes at all (bookmarks too): what a stall timer listens to. */
  onBytes?: () => void;
  onLine: (line: string) => void;
  /** The stream is over: null for a clean end, else why. Not called after abort(). */
  onEnd: (err: KubeError | null) => void;
}

export interface StreamHandle {
  abort(): void;
}

/** What ContextClient lends a stream: authenticated requests, its clock, and in-flight tracking. */
export interface Transport {
  clock: Clock;
  server: string;
  /** Time allowed until the response headers arrive. */
  timeoutMs: number;
  open(method: string, path: string, headers: Record<string, string>): Promise<http.ClientRequest>;
  /** Registers a canceller for ContextClient.close(); returns its removal. */
  track(cancel: () => void): () => void;
  unauthorized(): void;
}

export function openStream(
  t: Transport,
  path: string,
  handlers: StreamHandlers,
  what: string,
): Promise<StreamHandle> {
  const host = new URL(t.server).host;
  return new Promise((resolve, reject) => {
    let settled = false;
    let aborted = false;
    let req: http.ClientRequest | null = null;
    const handle: StreamHandle = {
      abort: () => {
        aborted = true;
        untrack();
        t.clock.clearTimeout(timer);
        req?.destroy();
      },
    };
    const end = (e: KubeError | null) => {
      untrack();
      t.clock.clearTimeout(timer);
      if (aborted) return;
      aborted = true;
      req?.destroy();
      if (!settled) {
        settled = true;
        reject(e ?? new KubeError('unreachable', `The connection to ${host} closed early.`));
      } else handlers.onEnd(e);
    };
    const untrack = t.track(() =>
      settled ? handle.abort() : end(new KubeError('aborted', 'The request was cancelled.')),
    );
    const timer = t.clock.setTimeout(
      () => end(new KubeError('timeout', `${host} did not answer in time.`)),
      t.timeoutMs,
    );
    const guarded: StreamHandlers = {
      onBytes: () => aborted || handlers.onBytes?.(),
      onLine: (line) => aborted || handlers.onLine(line),
      onEnd: handlers.onEnd,
    };
    const opened = () => {
      settled = true;
      t.clock.clearTimeout(timer);
      resolve(handle);
    };
    t.open('GET', path, { Accept: 'application/json' })
      .then((r) => {
        req = r;
        if (aborted) return r.destroy();
        r.on('error', (err) => end(classifyNetworkError(err, t.server)));
        r.on('socket', (socket) => socket.setKeepAlive(true, WATCH_KEEPALIVE_MS));
        r.on('response', (res) => onResponse(t, res, guarded, what, handle, end, opened));
        r.end();
      })
      .catch((e: unknown) => end(e instanceof KubeError ? e : classifyNetworkError(e, t.server)));
  });
}

function onResponse(
  t: Transport,
  res: http.IncomingMessage,
  h: StreamHandlers,
  what: string,
  handle: StreamHandle,
  end: (e: KubeError | null) => void,
  opened: () => void,
): void {
  const host = new URL(t.server).host;
  const status = res.statusCode ?? 0;
  if (status !== 200) {
    if (status === 401) t.unauthorized();
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      if (body.length < 65_536) body += d;
    });
    res.on('end', () => end(errorFromResponse(status, body, res.headers, what, t.server)));
    res.on('error', (err) => end(classifyNetworkError(err, t.server)));
    return;
  }
  opened();
  const lines = new LineSplitter(MAX_WATCH_LINE_BYTES);
  res.on('data', (chunk: Buffer) => {
    h.onBytes?.();
    let complete: string[];
    try {
      complete = lines.push(chunk);
    } catch (err) {
      handle.abort();
      h.onEnd(
        new KubeError('protocol', `${host} sent a watch line that could not be read (${String(err)}).`),
      );
      return;
    }
    for (const line of complete) h.onLine(line);
  });
  res.on('aborted', () => end(new KubeError('unreachable', `The watch connection to ${host} was cut off.`)));
  res.on('error', (err) => end(classifyNetworkError(err, t.server)));
  res.on('end', () =>
    end(
      lines.pendingBytes > 0
        ? new KubeError('protocol', `${host} ended the watch in the middle of an event.`)
        : null,
    ),
  );
}
