import { afterEach, describe, expect, it } from 'vitest';
import { OpsServer, parseListenAddress } from './ops-server.ts';

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
      metrics: async () => ({ contentType: 'text/plain; version=0.0.4', body: 'gpu_fleet_leader 1\n' }),
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
