/**
 * Fault matrix, hostile request lines to the simulator (over real TLS, raw bytes): a malformed escape or
 * a target that is not a path is Go's plain-text 400 with the connection closed; `//[` is a path like any
 * other (Go's ParseRequestURI takes it); parser garbage is a 400. The sim answers normally afterwards.
 * A client too slow with its headers or its body, or idle too long between requests, is cut without an
 * answer, as a kube-apiserver (Go's net/http) does; the tests shorten those timeouts, the sim's defaults
 * are a kube-apiserver's.
 */
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import type { SimOptions } from '../../sim/index.ts';
import { KUBE_APISERVER_TIMEOUTS } from '../../sim/server.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';
import { rawExchange, statusesOf, statusOf } from './raw-http.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

async function sim(timeouts: SimOptions['timeouts'] = {}): Promise<SimContext> {
  const s = await startSimContext({ scenario: 'homelab', timeouts });
  cleanup(() => s.cleanup());
  return s;
}

const port = (s: SimContext) => Number(new URL(s.sim.url).port);
const auth = (s: SimContext, close = true) =>
  `Host: 127.0.0.1\r\nAuthorization: Bearer ${s.sim.tokens.admin}\r\n${close ? 'Connection: close\r\n' : ''}`;

async function stillServes(s: SimContext): Promise<void> {
  const answer = await rawExchange(
    { port: port(s), tls: true },
    `GET /api/v1/nodes HTTP/1.1\r\n${auth(s)}\r\n`,
  );
  expect(statusOf(answer)).toBe(200);
  expect(answer).toContain('"kind":"NodeList"');
}

describe('hostile request lines to the simulator', () => {
  const lines: [string, (s: SimContext) => string | Buffer, number, RegExp][] = [
    [
      '`//[`, anonymous',
      () => 'GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      403,
      /cannot get path/,
    ],
    ['`//[`, authenticated', (s) => `GET //[ HTTP/1.1\r\n${auth(s)}\r\n`, 404, /404 page not found/],
    [
      'a malformed escape',
      (s) => `GET /api/v1/nodes/%zz HTTP/1.1\r\n${auth(s, false)}\r\n`,
      400,
      /\r\n\r\n400 Bad Request$/,
    ],
    ['a lone percent sign', (s) => `GET /% HTTP/1.1\r\n${auth(s, false)}\r\n`, 400, /Connection: close/i],
    ['an asterisk target', (s) => `OPTIONS * HTTP/1.1\r\n${auth(s, false)}\r\n`, 400, /400 Bad Request/],
    ['binary garbage', () => Buffer.from([0, 1, 2, 0x0d, 0x0a, 0x0d, 0x0a]), 400, /400 Bad Request/],
    // Go reads up to 1 MiB of headers (http.DefaultMaxHeaderBytes); Node alone would stop at 16 KiB.
    [
      'a 64 KiB header',
      (s) => `GET /version HTTP/1.1\r\n${auth(s)}X-Big: ${'a'.repeat(65_536)}\r\n\r\n`,
      200,
      /gitVersion/,
    ],
    [
      'a 2 MiB header',
      (s) => `GET /version HTTP/1.1\r\n${auth(s)}X-Big: ${'a'.repeat(2 << 20)}\r\n\r\n`,
      431,
      /431 Request Header Fields Too Large$/,
    ],
  ];
  it.each(lines)('%s: answered, and the sim still serves', async (_name, bytes, status, body) => {
    const s = await sim();
    const answer = await rawExchange({ port: port(s), tls: true }, bytes(s));
    expect(statusOf(answer)).toBe(status);
    expect(answer).toMatch(body);
    await stillServes(s);
  });

  it('a 2 MiB header: the 431 ends in a clean close, never a reset while the client still sends', async () => {
    // Node's parser reports such a header once per chunk that follows; closing the connection then
    // (instead of lingering as Go does) reset it, and under load the answer was lost to the reset.
    const s = await sim();
    const ended = await new Promise<{ answer: string; reset: boolean }>((resolve) => {
      const socket = tls.connect({ host: '127.0.0.1', port: port(s), rejectUnauthorized: false });
      const chunks: Buffer[] = [];
      let reset = false;
      socket.once('secureConnect', () =>
        socket.write(`GET /version HTTP/1.1\r\n${auth(s)}X-Big: ${'a'.repeat(2 << 20)}\r\n\r\n`),
      );
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', () => {
        reset = true;
      });
      socket.on('close', () => resolve({ answer: Buffer.concat(chunks).toString('latin1'), reset }));
    });
    expect(statusOf(ended.answer)).toBe(431);
    expect(ended.reset).toBe(false);
    await stillServes(s);
  });

  it('pipelined requests around a bad line: answered in order up to the close', async () => {
    const s = await sim();
    const good = `GET /version HTTP/1.1\r\n${auth(s, false)}\r\n`;
    const answer = await rawExchange(
      { port: port(s), tls: true },
      `${good}GET /%zz HTTP/1.1\r\n${auth(s, false)}\r\n${good}`,
    );
    expect(statusesOf(answer)).toEqual([200, 400]);
    await stillServes(s);
  });
});

describe('slow and idle clients of the simulator', () => {
  it("keeps a kube-apiserver's timeouts by default, not Node's", () => {
    expect(KUBE_APISERVER_TIMEOUTS).toEqual({ headersMs: 32_000, requestMs: 60_000, idleMs: 90_000 });
  });

  it('cuts a client whose headers are not complete by the header timeout, without an answer', async () => {
    const s = await sim({ headersMs: 300 });
    const answer = await rawExchange({ port: port(s), tls: true }, 'GET /version HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toBe('');
    await stillServes(s);
  });

  it('a second address of the same cluster (listenAlso) keeps the same timeouts', async () => {
    const s = await sim({ headersMs: 300 });
    const other = Number(new URL(await s.sim.listenAlso()).port);
    const answer = await rawExchange({ port: other, tls: true }, 'GET /version HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toBe('');
  });

  it('cuts a client whose body is not in by the request timeout, without an answer', async () => {
    const s = await sim({ headersMs: 200, requestMs: 400 });
    const answer = await rawExchange(
      { port: port(s), tls: true },
      `POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\n${auth(s, false)}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
    );
    expect(answer).toBe('');
    await stillServes(s);
  });

  it('closes a kept-alive connection idle past the idle timeout, after its answer', async () => {
    const s = await sim({ idleMs: 300 });
    const answer = await rawExchange(
      { port: port(s), tls: true },
      `GET /version HTTP/1.1\r\n${auth(s, false)}\r\n`,
    );
    expect(statusOf(answer)).toBe(200);
    expect(answer).toContain('gitVersion');
    await stillServes(s);
  });
});
