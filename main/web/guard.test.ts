import { describe, expect, it } from 'vitest';
import { checkRequest, cookieName, cookieToken } from './guard.ts';

const port = 4567;
const token = 'a'.repeat(43);
const COOKIE = cookieName(port);
const base = { host: `127.0.0.1:${port}`, origin: undefined, cookie: undefined, queryToken: null };

describe('loopback bridge guard', () => {
  it.each([
    ['the token in the URL', { queryToken: token }, { ok: true, via: 'query' }],
    ['the session cookie', { cookie: `x=1; ${COOKIE}=${token}` }, { ok: true, via: 'cookie' }],
    ['localhost as host', { host: `localhost:${port}`, queryToken: token }, { ok: true, via: 'query' }],
    [
      'same origin',
      { origin: `http://127.0.0.1:${port}`, cookie: `${COOKIE}=${token}` },
      { ok: true, via: 'cookie' },
    ],
    ['no token', {}, { ok: false, status: 401 }],
    ['a wrong token', { queryToken: 'b'.repeat(43) }, { ok: false, status: 401 }],
    ['a shorter token', { queryToken: 'a' }, { ok: false, status: 401 }],
    ['a rebinding Host', { host: `evil.example:${port}`, queryToken: token }, { ok: false, status: 403 }],
    ['another port', { host: '127.0.0.1:1', queryToken: token }, { ok: false, status: 403 }],
    ['no Host', { host: undefined, queryToken: token }, { ok: false, status: 403 }],
    [
      'a foreign Origin',
      { origin: 'http://evil.example', cookie: `${COOKIE}=${token}` },
      { ok: false, status: 403 },
    ],
  ] as const)('%s', (_name, change, expected) => {
    expect(checkRequest({ ...base, ...change }, port, token)).toMatchObject(expected);
  });

  it('reads the cookie among others', () => {
    expect(cookieToken(`a=b; ${COOKIE}=xyz=; c=d`, port)).toBe('xyz=');
    expect(cookieToken(undefined, port)).toBeNull();
    expect(cookieToken('a=b', port)).toBeNull();
  });

  it("ignores another port's session cookie", () => {
    expect(cookieToken(`${cookieName(port + 1)}=${token}`, port)).toBeNull();
    expect(checkRequest({ ...base, cookie: `${cookieName(port + 1)}=${token}` }, port, token)).toMatchObject({
      ok: false,
      status: 401,
    });
  });
});
