import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { OPS_LIMITS } from './ops-limits.ts';
import { OpsServer, parseListenAddress } from './ops-server.ts';

const text = (s: string) => ({ contentType: 'text/plain; version=0.0.4', body: Buffer.from(s) });
const tick = () => new Promise((r) => setTimeout(r, 5));

/** A raw client socket that never reads what it is sent; resolves `closed` when the server drops it. */
async function rawClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.pause();
  let closed = false;
  socket.on('error', () => undefined);
  socket.once('close', () => {
    closed = true;
  });
  return { socket, isClosed: () => closed };
}

describe('parseListenAddress', () => {
  it.each([
    [':8080', { host: null, port: 8080 }],
    ['127.0.0.1:0', { host: '127.0.0.1', port: 0 }],
    ['[::1]:9090', { host: '::1', port: 9090 }],
    ['localhost:8080', { host: 'localhost', port: 8080 }],
  ])('%s', (value, want) => {
    expect(parseListenAddress(value)).toEqual(want);
  });

  it.each(['8080', ':99999', 'host:', 'a b:80', 'http://x:80'])('refuses %s', (value) => {
    expect(parseListenAddress(value)).toMatch(/is not a listen address for --metrics-addr/);
  });
});

describe('OpsServer', () => {
  let server: OpsServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('answers the probes from the handlers, and only GET/HEAD on the three paths', async () => {
    let ready: string | null = 'the node cache has not been synced yet';
    server = new OpsServer({
      health: () => null,
      ready: () => ready,
      metrics: () => text('gpu_fleet_leader 1\n'),
    });
    const { port } = await server.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${base}/readyz`);
    expect([notReady.status, await notReady.text()]).toEqual([
      503,
      'the node cache has not been synced yet\n',
    ]);
    ready = null;
    expect((await fetch(`${base}/readyz?verbose`)).status).toBe(200);
    const m = await fetch(`${base}/metrics`);
    expect(m.headers.get('content-type')).toBe('text/plain; version=0.0.4');
    expect(await m.text()).toBe('gpu_fleet_leader 1\n');
    expect((await fetch(`${base}/metrics`, { method: 'HEAD' })).status).toBe(200);
    const post = await fetch(`${base}/readyz`, { method: 'POST', body: 'x' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect((await fetch(`${base}/`)).status).toBe(404);
  });
});

describe('OpsServer against hostile clients (real sockets on 127.0.0.1)', () => {
  let server: OpsServer | null = null;
  const clients: net.Socket[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy();
    await server?.close();
    server = null;
  });

  it('pipelined /metrics that are never read: the answers it holds stay bounded and the socket is dropped', async () => {
    const body = 'x'.repeat(256 << 10);
    server = new OpsServer({ health: () => null, ready: () => null, metrics: () => text(body) });
    const { port } = await server.listen({ host: '127.0.0.1', port: 0 });
    const c = await rawClient(port);
    clients.push(c.socket);
    c.socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(2000));
    let most = 0;
    for (let i = 0; i < 400 && server.connections > 0; i++) {
      most = Math.max(most, server.bufferedBytes);
      await tick();
    }
    // 2000 answers of 256 KiB are 500 MiB; the server never holds more than its cap plus one answer,
    // and drops the socket once it has more answers pending than a scraper would ever pipeline.
    expect(most).toBeLessThanOrEqual(OPS_LIMITS.maxBufferedBytes + body.length);
    expect(server.connections).toBe(0);
    expect(server.bufferedBytes).toBe(0);
  });

  it('caps connections: past the cap a new connection is closed on arrival', async () => {
    server = new OpsServer(
      { health: () => null, ready: () => null, metrics: () => text('') },
      { limits: { maxConnections: 3 } },
    );
    const { port } = await server.listen({ host: '127.0.0.1', port: 0 });
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await rawClient(port));
    clients.push(...held.map((h) => h.socket));
    for (let i = 0; i < 100 && server.connections < 3; i++) await tick();
    const extra = await rawClient(port);
    clients.push(extra.socket);
    extra.socket.resume();
    for (let i = 0; i < 200 && !extra.isClosed(); i++) await tick();
    expect(extra.isClosed()).toBe(true);
    expect(server.connections).toBe(3);
  });

  it('slowloris: a socket that has not sent a whole header by the deadline is closed (virtual clock)', async () => {
    const clock = new ManualClock();
    server = new OpsServer({ health: () => null, ready: () => null, metrics: () => text('') }, { clock });
    const { port } = await server.listen({ host: '127.0.0.1', port: 0 });
    const c = await rawClient(port);
    clients.push(c.socket);
    c.socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\n');
    for (let i = 0; i < 100 && server.connections === 0; i++) await tick();
    clock.advance(OPS_LIMITS.headerTimeoutMs - 1);
    await tick();
    expect(server.connections).toBe(1);
    c.socket.write('X-Slow: 1\r\n');
    clock.advance(1);
    for (let i = 0; i < 200 && server.connections > 0; i++) await tick();
    expect(server.connections).toBe(0);
  });

  it('a kept-alive socket idle past the deadline after its answer is closed too', async () => {
    const clock = new ManualClock();
    server = new OpsServer({ health: () => null, ready: () => null, metrics: () => text('') }, { clock });
    const { port } = await server.listen({ host: '127.0.0.1', port: 0 });
    const c = await rawClient(port);
    clients.push(c.socket);
    c.socket.resume();
    let answer = '';
    c.socket.on('data', (d: Buffer) => {
      answer += d.toString();
    });
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    for (let i = 0; i < 200 && !answer.includes('ok'); i++) await tick();
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(server.connections).toBe(1);
    clock.advance(OPS_LIMITS.headerTimeoutMs);
    for (let i = 0; i < 200 && server.connections > 0; i++) await tick();
    expect(server.connections).toBe(0);
  });
});
