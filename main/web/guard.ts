/**
 * Pure checks for the loopback bridge: only our Host (against DNS rebinding), only our Origin (against
 * cross-site requests), and the session token, from the URL once, then from a SameSite=Strict cookie.
 * Browsers share cookies across the ports of one host, so the cookie is named after the port: two
 * instances on 127.0.0.1 each keep their own session instead of overwriting each other's.
 */
import { timingSafeEqual } from 'node:crypto';

/** The session cookie's name for the bridge listening on `port`. */
export function cookieName(port: number): string {
  return `gpu-fleet-${port}`;
}

export interface GuardInput {
  host: string | undefined;
  origin: string | undefined;
  cookie: string | undefined;
  /** `token` query parameter of the URL, if any. */
  queryToken: string | null;
}

export type GuardVerdict =
  | { ok: true; via: 'cookie' | 'query' }
  | { ok: false; status: 401 | 403; reason: string };

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookieToken(header: string | undefined, port: number): string | null {
  if (!header) return null;
  const wanted = cookieName(port);
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === wanted) return rest.join('=');
  }
  return null;
}

export function checkRequest(input: GuardInput, port: number, token: string): GuardVerdict {
  const hosts = allowedHosts(port);
  if (!input.host || !hosts.has(input.host)) return { ok: false, status: 403, reason: 'foreign Host header' };
  if (input.origin !== undefined && !hosts.has(input.origin.replace(/^http:\/\//, ''))) {
    return { ok: false, status: 403, reason: 'foreign Origin' };
  }
  const fromCookie = cookieToken(input.cookie, port);
  if (fromCookie !== null && sameToken(fromCookie, token)) return { ok: true, via: 'cookie' };
  if (input.queryToken !== null && sameToken(input.queryToken, token)) return { ok: true, via: 'query' };
  return { ok: false, status: 401, reason: 'missing or wrong session token' };
}
