/**
 * Fault matrix, connection settings that must be named, not guessed: an auth provider we do not know
 * (kubectl's words, never an anonymous request), a proxy that cannot be reached or refuses the tunnel (the
 * proxy is named, not the API server), and a server that redirects (its target named without userinfo
 * or query, and not followed).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliOnce } from '../helpers/cli-harness.ts';
import { type Answer, startBrokenApi } from './broken-api.ts';
import { caData, contextFor, tempDir, writeKubeconfig } from './kubeconfig.ts';
import { ca, checkRefused, type homelab } from './refused.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** An HTTP proxy that answers every CONNECT with `status`. */
async function refusingProxy(status: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_, res) => res.writeHead(405).end());
  const sockets = new Set<Socket>();
  server.on('connect', (_req, socket: Socket) => {
    sockets.add(socket);
    socket.end(`HTTP/1.1 ${status} Nope\r\nContent-Length: 0\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('auth providers', () => {
  it('an unknown auth-provider is a configuration error in kubectl words; no request goes out', async () => {
    const seen: { sim: Awaited<ReturnType<typeof homelab>> | null } = { sim: null };
    await checkRefused(
      {
        fault: 'an auth-provider nobody implements',
        context: (s) => {
          seen.sim = s;
          return contextFor(s.dir, ca(s), { 'auth-provider': { name: 'keycloak', config: { x: 'y' } } });
        },
        phase: 'config-error',
        message: /^Context "x" cannot be used: no Auth Provider found for name "keycloak" \(user "u"\)/,
        retries: false,
      },
      cleanup,
    );
    // Anonymous requests would have reached the sim: none did.
    expect(seen.sim?.sim.control.requestLog() ?? ['missing sim']).toEqual([]);
  });

  it('gpu-fleet scan names it too', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config');
    writeKubeconfig(file, { server: 'https://127.0.0.1:1' }, { 'auth-provider': { name: 'gcpx' } });
    const r = await runCliOnce(['scan', '--kubeconfig', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no Auth Provider found for name "gcpx"/);
  });
});

describe('proxies', () => {
  it('a proxy-url nothing listens on: the proxy is named, its password is not', async () => {
    const port = await closedPort();
    await checkRefused(
      {
        fault: 'a proxy that refuses connections',
        context: (s) =>
          contextFor(s.dir, { ...ca(s), 'proxy-url': `http://user:pw@127.0.0.1:${port}` }, null),
        phase: 'unreachable',
        message: new RegExp(
          `^cannot reach proxy http://127\\.0\\.0\\.1:${port}: ECONNREFUSED; check proxy-url`,
        ),
        retries: true,
      },
      cleanup,
    );
  });

  it('a proxy that refuses the tunnel (407): the proxy and the status are named', async () => {
    const proxy = await refusingProxy(407);
    cleanup(() => proxy.close());
    await checkRefused(
      {
        fault: 'a proxy that refuses CONNECT',
        context: (s) => contextFor(s.dir, { ...ca(s), 'proxy-url': proxy.url }, null),
        phase: 'unreachable',
        message: /^The proxy http:\/\/127\.0\.0\.1:\d+ refused the tunnel to 127\.0\.0\.1:\d+ \(HTTP 407\)/,
        retries: true,
      },
      cleanup,
    );
  });
});

describe('redirects', () => {
  const redirect =
    (status: number, location: string): Answer =>
    (res) => {
      res.writeHead(status, { Location: location, 'Content-Length': 0 });
      res.end();
    };

  it.each([
    [
      307,
      'https://admin:pw@elsewhere.invalid:6443/api/v1/nodes?limit=500&token=abc',
      /redirects listing nodes to https:\/\/elsewhere\.invalid:6443\/api\/v1\/nodes \(307\)/,
    ],
    [
      301,
      '/k8s/clusters/c-42/api/v1/nodes?x=1',
      /redirects listing nodes to https:\/\/127\.0\.0\.1:\d+\/k8s\/clusters\/c-42\/api\/v1\/nodes \(301\)/,
    ],
  ])('%i: the target is named without credentials and not followed', async (status, location, said) => {
    const api = await startBrokenApi({ list: redirect(status, location) });
    cleanup(() => api.close());
    const file = path.join(tempDir(), 'config');
    writeKubeconfig(
      file,
      { server: api.url, 'certificate-authority-data': caData(api.caPem) },
      { token: 't' },
    );
    const r = await runCliOnce(['scan', '--kubeconfig', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(said);
    expect(r.stderr).not.toMatch(/pw|token=abc|x=1/);
    expect(api.requests.filter((p) => !p.startsWith('/api/v1/nodes'))).toEqual([]);
  });
});
