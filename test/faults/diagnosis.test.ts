/**
 * Fault matrix, node detail: a hostile or broken API server answering the on-demand reads (node GET,
 * its events, its pods). The detail must stay bounded and clean, name a failed part in one sentence, and
 * tell "no such node" (a NotFound Status) from "no such API" (a text 404). Not a mock of our client: a raw
 * HTTPS server on 127.0.0.1.
 */
import https from 'node:https';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_TEXT_MAX } from '../../common/cluster-text.ts';
import { fetchNodeDetail } from '../../main/diagnosis/detail.ts';
import { MAX_EVENTS } from '../../main/diagnosis/events-pods.ts';
import { MAX_CONDITIONS } from '../../main/diagnosis/node-parts.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { makeTls } from '../../sim/tls.ts';
import { caData, contextFor, tempDir } from './kubeconfig.ts';

type Handler = (res: import('node:http').ServerResponse) => void;
const json =
  (body: string, status = 200, type = 'application/json'): Handler =>
  (res) => {
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };

const hostile = `\u001b]0;owned\u0007\u001b[2J line one\nline two ${'z'.repeat(2_000_000)}`;
const hostileNode = JSON.stringify({
  kind: 'Node',
  apiVersion: 'v1',
  metadata: { name: 'evil', labels: { 'nvidia.com/gpu.present': 'true', constructor: 'x', __proto__: 'y' } },
  spec: { taints: Array.from({ length: 500 }, (_, i) => ({ key: `k${i}`, effect: 'NoSchedule' })) },
  status: {
    conditions: [
      { type: 'Ready', status: 'False', reason: hostile, message: hostile },
      ...Array.from({ length: 2000 }, (_, i) => ({ type: `C${i}`, status: 'True' })),
    ],
  },
});
const manyEvents = JSON.stringify({
  kind: 'EventList',
  items: Array.from({ length: 5000 }, (_, i) => ({
    reason: `R${i}`,
    message: hostile.slice(0, 1000),
    count: 'lots',
    lastTimestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  })),
});

let routes: Record<string, Handler> = {};
let server: https.Server;
let url = '';
const sockets = new Set<Socket>();

beforeAll(async () => {
  const tls = await makeTls();
  server = https.createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    (route ?? json('404 page not found\n', 404, 'text/plain'))(res);
  });
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  (globalThis as { __ca?: string }).__ca = tls.caPem;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

async function read(node: string) {
  const ca = (globalThis as { __ca?: string }).__ca ?? '';
  const client = new ContextClient(
    contextFor(tempDir(), { server: url, 'certificate-authority-data': caData(ca) }, { token: 't' }),
  );
  try {
    return await fetchNodeDetail(client, 'x', node, { now: Date.UTC(2026, 0, 2) });
  } finally {
    client.close();
  }
}

describe('node detail against a hostile API server', () => {
  it('keeps a 2 MB escape-laden message and 2,000 conditions bounded and clean', async () => {
    routes = {
      '/api/v1/nodes/evil': json(hostileNode),
      '/api/v1/events': json(manyEvents),
      '/api/v1/pods': json('{"kind":"PodList","items":['),
    };
    const d = await read('evil');
    expect(d?.conditions).toHaveLength(MAX_CONDITIONS);
    const ready = d?.conditions[0];
    expect(ready?.message?.startsWith('line one line two zzz')).toBe(true);
    expect(Array.from(ready?.message ?? '').length).toBeLessThanOrEqual(CLUSTER_TEXT_MAX);
    expect(d?.taints.length).toBeLessThanOrEqual(32);
    expect(d?.events).toHaveLength(MAX_EVENTS);
    expect(d?.events[0]?.reason).toBe('R4999');
    expect(d?.events.every((e) => e.count === 1 && e.message.length <= CLUSTER_TEXT_MAX)).toBe(true);
    expect(d?.partial).toEqual([
      expect.stringMatching(
        /^pods: 127\.0\.0\.1:\d+ did not answer like a Kubernetes API server while listing the pods on node evil \(bad JSON\)\.$/,
      ),
    ]);
  });

  it('names an answer over the size cap as a failed part, the node still shows', async () => {
    const big = `{"kind":"EventList","items":[${'{"reason":"x"},'.repeat(700_000)}{}]}`;
    routes = {
      '/api/v1/nodes/evil': json(hostileNode),
      '/api/v1/events': json(big),
      '/api/v1/pods': json('{"kind":"PodList","items":[]}'),
    };
    const d = await read('evil');
    expect(d?.partial).toEqual([
      expect.stringMatching(/^events: The answer from 127\.0\.0\.1:\d+ is larger than 8388608 bytes\.$/),
    ]);
    expect(d?.conditions.length).toBeGreaterThan(0);
  });

  it('tells "no such node" (NotFound Status) from "no such API" (text 404)', async () => {
    routes = {
      '/api/v1/nodes/gone': json(
        JSON.stringify({
          kind: 'Status',
          status: 'Failure',
          reason: 'NotFound',
          code: 404,
          message: 'nodes "gone" not found',
        }),
        404,
      ),
    };
    expect(await read('gone')).toBeNull();
    await expect(read('elsewhere')).rejects.toMatchObject({ kind: 'not-found' });
  });
});
