/**
 * Reading one untrusted request of the loopback bridge: the request target (never thrown on: a bad one is
 * `null`, answered 400) and a JSON body capped at MAX_BODY (a larger one is `too-large`, answered 413).
 */
import type http from 'node:http';

export const MAX_BODY = 64 * 1024;
const ORIGIN = 'http://127.0.0.1';

/**
 * The path and query of an origin-form request target (`/path?query`). A target that does not start with
 * `/` (`*`, an absolute URL) or that the URL parser refuses is null. The target is appended to a fixed
 * origin, so a leading `//` (as in `//[`) stays part of the path instead of naming a host: such a path
 * simply matches no route.
 */
export function parseTarget(target: string | undefined): URL | null {
  if (target === undefined || !target.startsWith('/')) return null;
  try {
    return new URL(ORIGIN + target);
  } catch {
    return null;
  }
}

export type Body = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'aborted' };

/**
 * The body as UTF-8, refusing (without buffering) anything past MAX_BODY: by its Content-Length before a
 * byte is read, or as it streams in. Past the cap the rest is read and thrown away, so the client gets the
 * 413 instead of a reset connection.
 */
export function readBody(req: http.IncomingMessage): Promise<Body> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (Number.isFinite(declared) && declared > MAX_BODY) {
    req.resume();
    return Promise.resolve({ ok: false, reason: 'too-large' });
  }
  return new Promise((resolve) => {
    let size = 0;
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      chunks.length = 0;
      req.resume();
      resolve({ ok: false, reason: 'too-large' });
    };
    req.on('data', onData);
    req.on('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => resolve({ ok: false, reason: 'aborted' }));
    req.on('close', () => resolve({ ok: false, reason: 'aborted' }));
  });
}
