// large:N,pods=P,gpu=G: the pods page with limit/continue and the live-pods field selector as a real server
// pages, the GPU pods fill the GPU slots (the rest Pending), and churnPods replaces pods on the watch.
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { startSim } from './index.ts';
import { parseLarge } from './scenarios/large-pods.ts';

interface PodList {
  metadata: { continue?: string; remainingItemCount?: number; resourceVersion: string };
  items: {
    metadata: { name: string; namespace: string };
    spec: { nodeName?: string; containers: { resources: { limits?: Record<string, string> } }[] };
    status: { phase: string };
  }[];
}

function getJson(url: string, ca: string, token: string, path: string): Promise<PodList> {
  return new Promise((ok, fail) => {
    const req = request(new URL(url + path), { ca, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        if (res.statusCode !== 200) fail(new Error(`${res.statusCode}: ${text}`));
        else ok(JSON.parse(text) as PodList);
      });
    });
    req.on('error', fail);
    req.end();
  });
}

const SELECTOR = encodeURIComponent('status.phase!=Succeeded,status.phase!=Failed');

describe('large scenario with pods', () => {
  it('parses its sizes and refuses bad ones', () => {
    expect(parseLarge('large:5000')).toEqual({ nodes: 5000, pods: 0, gpuPods: 0 });
    expect(parseLarge('large:50,pods=1000,gpu=200')).toEqual({ nodes: 50, pods: 1000, gpuPods: 200 });
    expect(() => parseLarge('large:50,pods=10,gpu=20')).toThrow(/G ≤ P/);
    expect(parseLarge('homelab')).toBeNull();
  });

  it('pages every pod once with limit/continue, with and without the field selector; churn replaces them', async () => {
    const sim = await startSim({ scenario: 'large:50,pods=1000,gpu=200' });
    try {
      const all = async (selector: boolean) => {
        const names: string[] = [];
        let cont = '';
        let pages = 0;
        let first: PodList | null = null;
        do {
          const q = `limit=300${selector ? `&fieldSelector=${SELECTOR}` : ''}${cont ? `&continue=${cont}` : ''}`;
          const page = await getJson(sim.url, sim.caPem, sim.tokens.admin, `/api/v1/pods?${q}`);
          first ??= page;
          names.push(...page.items.map((p) => `${p.metadata.namespace}/${p.metadata.name}`));
          cont = page.metadata.continue ?? '';
          pages++;
        } while (cont);
        return { names, pages, first: first as PodList };
      };
      const plain = await all(false);
      expect(plain.pages).toBe(4);
      expect(new Set(plain.names).size).toBe(1000);
      expect(plain.first.metadata.remainingItemCount).toBe(700);
      const live = await all(true);
      expect(live.names).toEqual(plain.names);
      expect(live.first.metadata.remainingItemCount).toBeUndefined();

      const list = await getJson(sim.url, sim.caPem, sim.tokens.admin, '/api/v1/pods');
      const gpu = list.items.filter((p) =>
        Object.keys(p.spec.containers[0]?.resources.limits ?? {}).some((r) => r.startsWith('nvidia.com/')),
      );
      expect(gpu).toHaveLength(200);
      const pending = gpu.filter((p) => p.status.phase === 'Pending');
      expect(pending.every((p) => p.spec.nodeName === undefined)).toBe(true);
      expect(gpu.length - pending.length).toBeGreaterThan(100);

      expect(sim.control.churnPods(10)).toBe(2);
      const after = await all(false);
      expect(after.names).toHaveLength(1000);
      expect(after.names.filter((n) => !plain.names.includes(n))).toHaveLength(10);
    } finally {
      await sim.close();
    }
  });
});
