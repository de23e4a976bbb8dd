/**
 * Fault matrix, hostile clients of browser mode's loopback bridge (`serve`): request lines the URL parser
 * or the percent-decoder refuses, parser-level garbage, huge headers and bodies, pipelining, two instances
 * side by side, and an event-stream client that never reads. Every answer is a 4xx (or a closed
 * connection), and the server still answers a normal request afterwards.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type InvokeHandlers, PushHub } from '../../main/fleet/host.ts';
import { cookieName } from '../../main/web/guard.ts';
import { startWebBridge, type WebBridge } from '../../main/web/server.ts';
import { until } from '../conformance/client.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { rawExchange, stalledClient, statusesOf, statusOf } from './raw-http.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

async function bridge(clock = new ManualClock()) {
  const dir = mkdtempSync(path.join(tmpdir(), 'gpu-fleet-web-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>GPU Fleet</title>');
  const hub = new PushHub();
  const handlers = { 'app:info': () => ({ version: 'test' }) } as unknown as InvokeHandlers;
  const b = await startWebBridge({ host: { handlers, onPush: (l) => hub.on(l) }, staticDir: dir, clock });
  cleanup(() => b.close());
  return { b, hub, clock };
}

const cookie = (b: WebBridge) => `${cookieName(b.port)}=${b.token}`;
/** Host and session cookie; the connection closes after the answer unless `keepAlive` (pipelining). */
const head = (b: WebBridge, extra = '', keepAlive = false) =>
  `Host: 127.0.0.1:${b.port}\r\nCookie: ${cookie(b)}\r\n${keepAlive ? '' : 'Connection: close\r\n'}${extra}`;

/** A normal, authenticated request on a fresh connection: the server is still there. */
async function stillServes(b: WebBridge): Promise<void> {
  const answer = await rawExchange({ port: b.port }, `GET /index.html HTTP/1.1\r\n${head(b)}\r\n`);
  expect(statusOf(answer)).toBe(200);
  expect(answer).toContain('<title>GPU Fleet</title>');
}

describe('slow clients of serve', () => {
  it('a slowloris whose headers never finish is closed at the headers deadline (not 60 s later, as Node would)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gpu-fleet-web-'));
    const hub = new PushHub();
    const handlers = {} as unknown as InvokeHandlers;
    const b = await startWebBridge({
      host: { handlers, onPush: (l) => hub.on(l) },
      staticDir: dir,
      clock: new ManualClock(),
      headersTimeoutMs: 200,
    });
    cleanup(() => b.close());
    const socket = await stalledClient(
      b.port,
      `GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nX-Slow: `,
    );
    let closed = false;
    socket.resume();
    socket.on('error', () => undefined);
    socket.once('close', () => {
      closed = true;
    });
    // A bound on a hung run, not a timing claim: Node's own default would hold it 60 s or more.
    for (let i = 0; i < 100 && !closed; i++) await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(true);
  });
});

describe('the token-for-cookie redirect goes only to our own paths', () => {
  it.each([
    ['//evil.example/', '/evil.example/'],
    ['/\\evil.example/', '/evil.example/'],
    ['/%2F%2Fevil.example/', '/%2F%2Fevil.example/'],
    ['/index.html', '/index.html'],
  ])('GET %s?token=T answers 302 Location: %s', async (target, location) => {
    const { b } = await bridge();
    const answer = await rawExchange(
      { port: b.port },
      `GET ${target}?token=${b.token} HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(statusOf(answer)).toBe(302);
    expect(/\r\nlocation: ([^\r]*)\r\n/i.exec(answer)?.[1]).toBe(location);
  });
});

describe('hostile request lines to serve', () => {
  const lines: [string, (b: WebBridge) => string | Buffer, number[]][] = [
    // `new URL('//[', base)` throws (an authority with a broken IPv6 literal); the bridge reads it as a path.
    [
      '`//[`, unauthenticated',
      (b) => `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nConnection: close\r\n\r\n`,
      [401],
    ],
    ['`//[`, no Host at all (Node requires one)', () => 'GET //[ HTTP/1.1\r\n\r\n', [400]],
    ['`//[`, authenticated', (b) => `GET //[ HTTP/1.1\r\n${head(b)}\r\n`, [404]],
    [
      '`//[` before an API path',
      (b) => `POST //[/api/invoke/app:info HTTP/1.1\r\n${head(b)}Content-Length: 2\r\n\r\n[]`,
      [405],
    ],
    ['a malformed percent escape', (b) => `GET /%zz HTTP/1.1\r\n${head(b)}\r\n`, [400]],
    ['a lone percent sign', (b) => `GET /% HTTP/1.1\r\n${head(b)}\r\n`, [400]],
    ['an escape that is not UTF-8', (b) => `GET /%ff%fe HTTP/1.1\r\n${head(b)}\r\n`, [400]],
    ['an escaped NUL byte', (b) => `GET /index.html%00.png HTTP/1.1\r\n${head(b)}\r\n`, [400]],
    ['escaped traversal', (b) => `GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\n${head(b)}\r\n`, [404]],
    [
      'raw non-UTF-8 bytes in the path',
      (b) =>
        Buffer.concat([
          Buffer.from('GET /'),
          Buffer.from([0xff, 0xfe, 0xc0]),
          Buffer.from(` HTTP/1.1\r\n${head(b)}\r\n`),
        ]),
      [400, 404],
    ],
    ['an asterisk target', (b) => `OPTIONS * HTTP/1.1\r\n${head(b)}\r\n`, [400]],
    ['an absolute-form target', (b) => `GET http://evil.example/ HTTP/1.1\r\n${head(b)}\r\n`, [400]],
    ['an HTTP/0.9 request line', () => 'GET /\r\n\r\n', [400, 403]],
    ['binary garbage', () => Buffer.from([0, 1, 2, 3, 0x0d, 0x0a, 0x0d, 0x0a]), [400]],
    ['a 64 KiB header', (b) => `GET / HTTP/1.1\r\n${head(b)}X-Big: ${'a'.repeat(65_536)}\r\n\r\n`, [431]],
    [
      'a bad token in the query',
      (b) => `GET /?token=%zz%00 HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nConnection: close\r\n\r\n`,
      [401],
    ],
  ];
  it.each(lines)('%s: a 4xx, then the server still answers', async (_name, bytes, expected) => {
    const { b } = await bridge();
    const answer = await rawExchange({ port: b.port }, bytes(b));
    expect(expected).toContain(statusOf(answer));
    await stillServes(b);
  });

  it('a bad line pipelined between good requests answers each in turn', async () => {
    const { b } = await bridge();
    const good = `GET /index.html HTTP/1.1\r\n${head(b, '', true)}\r\n`;
    const answer = await rawExchange(
      { port: b.port },
      `${good}GET /%zz HTTP/1.1\r\n${head(b, '', true)}\r\n${good}GET //[ HTTP/1.1\r\n${head(b)}\r\n`,
    );
    expect(statusesOf(answer)).toEqual([200, 400, 200, 404]);
    await stillServes(b);
  });
});

describe('a handler that throws', () => {
  it('is a 500 with one sentence, and the next request is served', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gpu-fleet-web-'));
    writeFileSync(path.join(dir, 'index.html'), '<title>GPU Fleet</title>');
    const hub = new PushHub();
    let broken = true;
    const host = {
      get handlers(): InvokeHandlers {
        if (broken) throw new Error('engine gone');
        return { 'app:info': () => ({}) } as unknown as InvokeHandlers;
      },
      onPush: (l: Parameters<PushHub['on']>[0]) => hub.on(l),
    };
    const b = await startWebBridge({ host, staticDir: dir, clock: new ManualClock() });
    cleanup(() => b.close());
    const call = `POST /api/invoke/app:info HTTP/1.1\r\n${head(b)}Content-Length: 2\r\n\r\n[]`;
    const answer = await rawExchange({ port: b.port }, call);
    expect(statusOf(answer)).toBe(500);
    expect(answer).toContain('The GPU Fleet server could not answer this request.');
    expect(answer).not.toContain('engine gone');
    broken = false;
    expect(statusOf(await rawExchange({ port: b.port }, call))).toBe(200);
  });
});

describe('request bodies to serve', () => {
  const invoke = (b: WebBridge, extra: string) =>
    `POST /api/invoke/app:info HTTP/1.1\r\n${head(b)}Content-Type: application/json\r\n${extra}`;

  it('a declared body over 64 KiB is a 413, not a reset', async () => {
    const { b } = await bridge();
    const body = `[${'1,'.repeat(50_000)}1]`;
    const answer = await rawExchange(
      { port: b.port },
      `${invoke(b, `Content-Length: ${body.length}\r\n\r\n`)}${body}`,
    );
    expect(statusOf(answer)).toBe(413);
    expect(answer).toMatch(/request body too large \(the limit is 65536 bytes\)/);
    await stillServes(b);
  });

  it('a chunked body that grows past 64 KiB is a 413, not a reset', async () => {
    const { b } = await bridge();
    const chunk = 'x'.repeat(16 * 1024);
    const chunks = Array.from({ length: 6 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const answer = await rawExchange(
      { port: b.port },
      `${invoke(b, 'Transfer-Encoding: chunked\r\n\r\n')}${chunks}0\r\n\r\n`,
    );
    expect(statusOf(answer)).toBe(413);
    await stillServes(b);
  });

  it('a body just under the limit is read (and a non-array is a 400 from validation)', async () => {
    const { b } = await bridge();
    const body = `[${'"a",'.repeat(1000)}"a"]`;
    const answer = await rawExchange(
      { port: b.port },
      `${invoke(b, `Content-Length: ${body.length}\r\n\r\n`)}${body}`,
    );
    expect(statusOf(answer)).toBe(400);
  });
});

describe('two browser-mode instances on one machine', () => {
  /** A browser's cookie jar: cookies are per host, not per port (RFC 6265 §8.5). */
  class Jar {
    readonly #cookies = new Map<string, string>();
    store(answer: string): void {
      for (const m of answer.matchAll(/^set-cookie: ([^=]+)=([^;\r\n]*)/gim))
        this.#cookies.set(m[1] ?? '', m[2] ?? '');
    }
    header(): string {
      return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
  }
  const login = (b: WebBridge) =>
    rawExchange(
      { port: b.port },
      `GET /?token=${b.token} HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nConnection: close\r\n\r\n`,
    );
  const call = (b: WebBridge, jar: Jar) =>
    rawExchange(
      { port: b.port },
      `POST /api/invoke/app:info HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nCookie: ${jar.header()}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]`,
    );

  it('logging in to the second does not log the first out', async () => {
    const { b: first } = await bridge();
    const { b: second } = await bridge();
    const jar = new Jar();
    jar.store(await login(first));
    jar.store(await login(second));
    expect(statusOf(await call(first, jar))).toBe(200);
    expect(statusOf(await call(second, jar))).toBe(200);
  });
});

describe('an event-stream client that stops reading', () => {
  const FRAME_BYTES = 1024 * 1024;
  const snapshot = (i: number) => ({ i, pad: 'x'.repeat(FRAME_BYTES) }) as never;

  it('holds at most one frame per channel for it, however many snapshots are pushed', async () => {
    const { b, hub } = await bridge();
    const socket = await stalledClient(b.port, `GET /api/events HTTP/1.1\r\n${head(b)}\r\n`);
    cleanup(() => void socket.destroy());
    await until(() => b.streamBytes().length === 1);
    let most = 0;
    for (let i = 0; i < 60; i++) {
      hub.emit('fleet:snapshot', snapshot(i));
      most = Math.max(most, ...b.streamBytes());
      await new Promise((r) => setImmediate(r));
    }
    // 60 MiB pushed; what stays is the socket's share of one frame plus the newest waiting snapshot.
    expect(most).toBeLessThan(3 * FRAME_BYTES);
  });

  it('is dropped once it has been blocked for a minute (on the bridge clock)', async () => {
    const { b, hub, clock } = await bridge();
    const socket = await stalledClient(b.port, `GET /api/events HTTP/1.1\r\n${head(b)}\r\n`);
    cleanup(() => void socket.destroy());
    await until(() => b.streamBytes().length === 1);
    for (let i = 0; i < 20; i++) {
      hub.emit('fleet:snapshot', snapshot(i));
      await new Promise((r) => setImmediate(r));
    }
    clock.advance(30_000);
    expect(b.streamBytes()).toHaveLength(1);
    clock.advance(45_000);
    await until(() => b.streamBytes().length === 0);
  });

  it('a client that reads gets every frame', async () => {
    const { b, hub } = await bridge();
    const answer = rawExchange({ port: b.port }, `GET /api/events HTTP/1.1\r\n${head(b)}\r\n`);
    await until(() => b.streamBytes().length === 1);
    for (let i = 0; i < 5; i++) hub.emit('alerts:new', { n: i } as never);
    await until(() => b.streamBytes()[0] === 0);
    await b.close();
    const text = await answer;
    expect([...text.matchAll(/event: alerts:new\ndata: \{"n":(\d)\}/g)].map((m) => m[1])).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
    ]);
  });
});
