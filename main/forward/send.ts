/**
 * The one place forwarding touches the network: one request, with a time limit on the injected clock
 * and a cap on the answer it reads. It never throws; a failure says whether the request had been
 * sent whole (then the server may have acted on it, and a retry could duplicate it).
 */
import http from 'node:http';
import https from 'node:https';
import type { Clock } from '../kube/clock.ts';
import type { OutboundRequest } from './outbound.ts';

export interface Answer {
  type: 'answer';
  status: number;
  retryAfter: string | null;
  contentType: string;
  /** The head of the body, at most `maxBytes`, as UTF-8 text. */
  body: string;
}

export interface Failure {
  type: 'failure';
  /** What went wrong, as a short phrase for the user ("connection refused", "timed out after 10 s"). */
  what: string;
  /**
   * The connection was made before it failed: the server may have received the request and acted on
   * it. (A refused or unresolved connection never carried it.)
   */
  sent: boolean;
}

export type SendResult = Answer | Failure;

export interface SendOptions {
  clock: Clock;
  timeoutMs: number;
  maxBytes: number;
}

export const SEND_DEFAULTS = { timeoutMs: 10_000, maxBytes: 64 * 1024 } as const;

export type Sender = (req: OutboundRequest, opts: SendOptions) => Promise<SendResult>;

const CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  ERR_INVALID_CHAR: 'a header holds a character HTTP cannot carry (check the token)',
};

function phrase(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (CODES[code]) return CODES[code];
  if (code.startsWith('ERR_TLS') || code.includes('CERT')) return 'TLS failed (certificate)';
  return code === '' ? 'request failed' : `request failed (${code})`;
}

export const sendRequest: Sender = (req, opts) =>
  new Promise<SendResult>((resolve) => {
    const url = new URL(req.url);
    const lib = url.protocol === 'https:' ? https : http;
    const body = req.body === null ? null : Buffer.from(req.body, 'utf8');
    const headers = { ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    let sent = false;
    let done = false;
    const finish = (r: SendResult) => {
      if (done) return;
      done = true;
      opts.clock.clearTimeout(timer);
      resolve(r);
    };
    let request: http.ClientRequest;
    try {
      request = lib.request(url, { method: req.method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size >= opts.maxBytes) return;
          chunks.push(chunk.subarray(0, opts.maxBytes - size));
          size += chunk.length;
          // Enough read: the rest of a huge answer is not waited for.
          if (size >= opts.maxBytes) res.destroy();
        });
        const answer = (): Answer => ({
          type: 'answer',
          status: res.statusCode ?? 0,
          retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
          contentType: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.on('end', () => finish(answer()));
        res.on('close', () => finish(answer()));
        res.on('error', () => finish(answer()));
      });
    } catch (error) {
      // Node refuses a bad header (a token with a newline or a character past Latin-1) synchronously:
      // nothing was sent, and a send never rejects (a rejected queue run would end the process).
      resolve({ type: 'failure', what: phrase(error), sent: false });
      return;
    }
    const timer = opts.clock.setTimeout(() => {
      request.destroy();
      finish({ type: 'failure', what: `timed out after ${Math.round(opts.timeoutMs / 1000)} s`, sent });
    }, opts.timeoutMs);
    request.on('socket', (socket) => {
      socket.once('connect', () => {
        sent = true;
      });
    });
    request.on('error', (error) => finish({ type: 'failure', what: phrase(error), sent }));
    request.end(body ?? undefined);
  });
