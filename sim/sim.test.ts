// Simulator unit checks: large scenario size and gzip, node status SSA conflicts, selectors, the CLI line.
import { request } from 'node:https';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rawExchange } from '../test/faults/raw-http.ts';
import { runSimCommand } from './cli.ts';
import { startDemoClusters } from './demo.ts';
import { startSim } from './index.ts';
import { parseLabelSelector } from './selectors.ts';

function get(
  url: string,
  ca: string,
  token: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((ok, fail) => {
    const u = new URL(url + path);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        ca,
        headers: { Authorization: `Bearer ${token}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', fail);
    if (body) req.write(body);
    req.end();
  });
}

describe('the kube-system namespace: one cluster identity through every address', () => {
  it('answers its uid alike on both listeners, and 403 (as shared/real-api/08) to a user without get on namespaces', async () => {
    const sim = await startSim({ scenario: 'homelab' });
    try {
      const other = await sim.listenAlso();
      const path = '/api/v1/namespaces/kube-system';
      const uid = async (url: string) => {
        const r = await get(url, sim.caPem, sim.tokens.admin, path);
        expect(r.status).toBe(200);
        return (JSON.parse(r.body.toString('utf8')) as { metadata: { uid: string } }).metadata.uid;
      };
      const first = await uid(sim.url);
      expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(await uid(other)).toBe(first);
      expect(await uid(sim.url)).toBe(first);
      const ro = await get(sim.url, sim.caPem, sim.tokens.readonly, path);
      expect(ro.status).toBe(403);
      expect(JSON.parse(ro.body.toString('utf8'))).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'Forbidden',
        code: 403,
        details: { name: 'kube-system', kind: 'namespaces' },
        message:
          'namespaces "kube-system" is forbidden: User "sim-readonly" cannot get resource "namespaces" in API group "" at the cluster scope',
      });
    } finally {
      await sim.close();
    }
  });
});

describe('large scenario', () => {
  it('seeds realistic nodes and serves a gzip-compressed full list', async () => {
    const sim = await startSim({ scenario: 'large:300' });
    try {
      const r = await get(sim.url, sim.caPem, sim.tokens.admin, '/api/v1/nodes', {
        'Accept-Encoding': 'gzip',
      });
      expect(r.headers['content-encoding']).toBe('gzip');
      const list = JSON.parse(gunzipSync(r.body).toString('utf8')) as {
        items: { metadata: { labels: Record<string, string> } }[];
      };
      expect(list.items).toHaveLength(300);
      const perNode = gunzipSync(r.body).length / 300;
      expect(perNode).toBeGreaterThan(9000);
      expect(perNode).toBeLessThan(20000);
      const labels = list.items.map((i) => i.metadata.labels);
      expect(labels.some((l) => l['nvidia.com/mig.strategy'] === 'mixed')).toBe(true);
      expect(labels.some((l) => l['nvidia.com/gpu.sharing-strategy'] === 'time-slicing')).toBe(true);
      expect(labels.some((l) => l['nvidia.com/gpu.workload.config'] === 'vm-passthrough')).toBe(true);
    } finally {
      await sim.close();
    }
  });
});

describe('requestLatencyMs', () => {
  it('answers as usual, only later; a latency out of 0–10000 ms is refused', async () => {
    const sim = await startSim({ scenario: 'large:3', requestLatencyMs: 5 });
    try {
      const r = await get(sim.url, sim.caPem, sim.tokens.admin, '/api/v1/nodes');
      expect(r.status).toBe(200);
      expect((JSON.parse(r.body.toString('utf8')) as { items: unknown[] }).items).toHaveLength(3);
    } finally {
      await sim.close();
    }
    for (const bad of [-1, Number.NaN, 10_001])
      await expect(startSim({ scenario: 'empty', requestLatencyMs: bad })).rejects.toThrow(
        /requestLatencyMs/,
      );
  });
});

describe('node status server-side apply', () => {
  it('names conflicting condition fields like the real server', async () => {
    const sim = await startSim({ scenario: 'empty' });
    try {
      const post = await get(
        sim.url,
        sim.caPem,
        sim.tokens.admin,
        '/api/v1/nodes',
        { 'Content-Type': 'application/json' },
        'POST',
        JSON.stringify({ metadata: { name: 'ssa-node' } }),
      );
      expect(post.status).toBe(201);
      const body = (status: string) =>
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: 'ssa-node' },
          status: { conditions: [{ type: 'Ready', status, reason: 'R', message: 'm' }] },
        });
      const h = { 'Content-Type': 'application/apply-patch+yaml' };
      expect(
        (
          await get(
            sim.url,
            sim.caPem,
            sim.tokens.admin,
            '/api/v1/nodes/ssa-node/status?fieldManager=node-sim',
            h,
            'PATCH',
            body('True'),
          )
        ).status,
      ).toBe(200);
      const c = await get(
        sim.url,
        sim.caPem,
        sim.tokens.admin,
        '/api/v1/nodes/ssa-node/status?fieldManager=kubelet-sim',
        h,
        'PATCH',
        body('False'),
      );
      expect(c.status).toBe(409);
      const j = JSON.parse(c.body.toString()) as { message: string };
      expect(j.message).toBe(
        'Apply failed with 1 conflict: conflict with "node-sim" with subresource "status": .status.conditions[type="Ready"].status',
      );
    } finally {
      await sim.close();
    }
  });
});

describe('label selectors', () => {
  it('parses set-based and equality requirements', () => {
    const m = parseLabelSelector('a in (x,y),b!=z,!c,d');
    expect(m({ a: 'x', d: '' })).toBe(true);
    expect(m({ a: 'x', b: 'z', d: '' })).toBe(false);
    expect(() => parseLabelSelector('pool=a b')).toThrow("found 'b', expected: ',' or 'end of string'");
  });
});

describe('cli', () => {
  it('prints one line with the URL and writes the kubeconfig', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => {
      text += c.toString();
    });
    const sim = await runSimCommand({ scenario: 'empty' }, out);
    await sim.close();
    expect(text).toBe(`GPU Fleet simulator (scenario empty) listening on ${sim.url}\n`);
  });
});

describe('HTTP controls are opt-in', () => {
  const post = (sim: Awaited<ReturnType<typeof startSim>>) =>
    rawExchange(
      { port: Number(new URL(sim.url).port), tls: true },
      `POST /sim/control/listNodeNames HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sim.tokens.admin}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]`,
    );

  it('the demo clusters (sim/demo.ts, what the app and serve --demo start) have no /sim/control endpoint', async () => {
    const demo = await startDemoClusters();
    try {
      for (const [context, sim] of demo.sims) {
        // 404, as a real server answers that path, even to the admin's token.
        expect((await post(sim)).split('\r\n')[0], context).toBe('HTTP/1.1 404 Not Found');
        // The in-process controls still work.
        expect(sim.control.listNodeNames().length, context).toBeGreaterThan(0);
      }
      expect(demo.sims.size).toBe(2);
    } finally {
      await demo.close();
    }
  });

  it('with httpControls the admin can drive it over HTTP', async () => {
    const sim = await startSim({ scenario: 'homelab', httpControls: true });
    try {
      const answer = await post(sim);
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(answer).toContain('nuc1');
    } finally {
      await sim.close();
    }
  });
});
