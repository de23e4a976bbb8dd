/**
 * Free GPUs through the engine against the sim over real HTTPS: the small lab's figures and Pending pod,
 * a pod bound, deleted and completed moving the numbers both ways on the pods watch, a user who may list
 * nodes but not pods (unknown, never 0), and the per-context off switch. Engine time is a ManualClock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClusterFree } from '../../common/free-gpus.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { ContextClient } from '../kube/context-client.ts';
import { FleetEngine } from './engine.ts';

// Counts the builds of the figures (the real function runs): a build is a pass over every node.
const builds = vi.hoisted(() => ({ count: 0 }));
vi.mock('../inventory/free-gpus.ts', async (real) => {
  const mod = await real<typeof import('../inventory/free-gpus.ts')>();
  return {
    ...mod,
    snapshotFree: (...a: Parameters<typeof mod.snapshotFree>) => {
      builds.count++;
      return mod.snapshotFree(...a);
    },
  };
});

const sims: SimContext[] = [];
let engine: FleetEngine | null = null;
afterEach(async () => {
  engine?.stop();
  engine = null;
  await Promise.all(sims.splice(0).map((s) => s.cleanup()));
});

async function start(context = 'sim-admin', opts: { freeGpus?: boolean } = {}) {
  const env = await startSimContext({ scenario: 'smalllab:3600000' });
  sims.push(env);
  const clock = new ManualClock();
  const e = new FleetEngine({ clock, ...(opts.freeGpus === false ? { freeGpus: () => false } : {}) });
  engine = e;
  e.setContexts([env.context(context)]);
  const free = (): ClusterFree | undefined => e.snapshot().contexts[0]?.free;
  const until = (check: () => boolean, what: string) =>
    pollUntil(check, what, { each: () => clock.advance(0) });
  return { env, e, free, until };
}

const slot = (f: ClusterFree | undefined, node: string, resource: string) =>
  f?.nodes.find((n) => n.name === node)?.slots.find((s) => s.resource === resource);

describe('free GPUs in the engine', () => {
  it("the small lab: per node and product, and the scheduler's reason for the Pending pod", async () => {
    const { free, until } = await start();
    await until(() => free()?.state === 'known', 'the pods list');
    const f = free();
    expect(slot(f, 'lab-a100', 'nvidia.com/mig-1g.5gb')).toMatchObject({
      allocatable: 2,
      requested: 1,
      free: 1,
    });
    expect(slot(f, 'lab-a100', 'nvidia.com/mig-3g.20gb')).toMatchObject({
      allocatable: 1,
      requested: 1,
      free: 0,
    });
    expect(slot(f, 'lab-4090', 'nvidia.com/gpu.shared')).toMatchObject({
      kind: 'shared',
      free: 2,
      physical: 1,
    });
    expect(slot(f, 'lab-a30', 'nvidia.com/gpu')).toMatchObject({ kind: 'mig', profile: '1g.6gb', free: 3 });
    expect(Object.fromEntries(f?.products.map((p) => [p.label, p.free]) ?? [])).toEqual({
      'A30 MIG 1g.6gb': 3,
      'RTX 4090 (shared)': 2,
      'A100 SXM4 40GB MIG 1g.5gb': 1,
      'A100 SXM4 40GB MIG 2g.10gb': 1,
      'A100 SXM4 40GB MIG 3g.20gb': 0,
      L4: 0,
    });
    expect(f?.free_total).toBe(7);
    expect(f?.pending?.count).toBe(1);
    expect(f?.pending?.pods[0]).toMatchObject({
      name: 'pretrain-4gpu',
      reason: 'Unschedulable',
      message: expect.stringMatching(
        /^0\/5 nodes are available: 5 Insufficient nvidia\.com\/gpu\. preemption: /,
      ),
    });
  });

  it('a pod bound, completed and deleted moves the free count both ways', async () => {
    const { env, free, until } = await start();
    await until(() => free()?.state === 'known', 'the pods list');
    const a30 = () => slot(free(), 'lab-a30', 'nvidia.com/gpu')?.free;
    expect(a30()).toBe(3);
    const client = new ContextClient(env.context('sim-admin'));
    const json = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const make = (name: string) =>
      client.request('POST', '/api/v1/namespaces/research/pods', {
        headers: json,
        body: JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace: 'research' },
          spec: {
            nodeName: 'lab-a30',
            containers: [{ name: 'c', image: 'cuda', resources: { limits: { 'nvidia.com/gpu': '2' } } }],
          },
        }),
      });
    try {
      expect((await make('burst-a')).status).toBe(201);
      await until(() => a30() === 1, 'the bound pod');
      // Completed: the pod leaves the live-pods selector (the watch says DELETED), its GPUs are free again.
      const done = await client.request('PATCH', '/api/v1/namespaces/research/pods/burst-a/status', {
        headers: { ...json, 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ status: { phase: 'Succeeded' } }),
      });
      expect(done.status).toBe(200);
      await until(() => a30() === 3, 'the completed pod');
      expect((await make('burst-b')).status).toBe(201);
      await until(() => a30() === 1, 'the second bound pod');
      const gone = await client.request('DELETE', '/api/v1/namespaces/research/pods/burst-b', {
        headers: json,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 }),
      });
      expect(gone.status).toBe(200);
      await until(() => a30() === 3, 'the deleted pod');
    } finally {
      client.close();
    }
  });

  it('a burst of pod events builds the figures when a snapshot asks, not once per event', async () => {
    const { env, e, until } = await start();
    await until(() => e.snapshot().contexts[0]?.free?.state === 'known', 'the pods list');
    const pending = () => e.snapshot().contexts[0]?.free?.pending?.count ?? Number.NaN;
    const before = pending();
    const client = new ContextClient(env.context('sim-admin'));
    const burst = 40;
    // The engine's clock stands still from here: no snapshot task runs, only the reads below ask for figures.
    builds.count = 0;
    try {
      const made = await Promise.all(
        Array.from({ length: burst }, (_, i) =>
          client.request('POST', '/api/v1/namespaces/research/pods', {
            headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
            body: JSON.stringify({
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name: `many-${i}`, namespace: 'research' },
              spec: {
                containers: [{ name: 'c', image: 'cuda', resources: { limits: { 'nvidia.com/gpu': '1' } } }],
              },
            }),
          }),
        ),
      );
      expect(made.map((r) => r.status)).toEqual(Array(burst).fill(201));
      let reads = 0;
      await pollUntil(
        () => {
          reads++;
          return pending() === before + burst;
        },
        'every Pending pod in the figures',
        { everyMs: 100 },
      );
      // Each pod event used to build the figures (the merged-cluster check read them): 40 builds at least.
      expect(builds.count).toBeLessThanOrEqual(reads);
    } finally {
      client.close();
    }
  });

  it('a user who may list nodes but not pods: free GPUs unknown (forbidden), never 0', async () => {
    const { e, free, until } = await start('sim-nodesonly');
    await until(() => free()?.reason === 'forbidden', 'the forbidden pods list');
    expect(e.snapshot().contexts[0]?.inventory?.total_gpu_nodes).toBe(4);
    expect(free()).toMatchObject({
      state: 'unknown',
      message: 'free GPUs unknown: pods are forbidden',
      free_total: null,
      pending: null,
    });
    // The nodes still tell what is offered (the Capacity view shows it), in use and free unknown.
    const products = free()?.products ?? [];
    expect(products.length).toBeGreaterThan(0);
    expect(products.every((p) => p.free === null && p.in_use === null && p.allocatable > 0)).toBe(true);
  });

  it('one cluster merged from a nodes-only context listed first: watched through the one that may list pods', async () => {
    const env = await startSimContext({ scenario: 'smalllab:3600000' });
    sims.push(env);
    const clock = new ManualClock();
    const e = new FleetEngine({ clock });
    engine = e;
    e.setContexts([env.context('sim-nodesonly'), env.context('sim-admin')]);
    await pollUntil(
      () => e.snapshot().contexts[0]?.free?.state === 'known',
      'known free GPUs through sim-admin',
      { each: () => clock.advance(0) },
    );
    const cards = e.snapshot().contexts;
    expect(cards.map((c) => [c.context, c.sameCluster, c.free?.free_total])).toEqual([
      ['sim-admin', ['sim-nodesonly'], 7],
    ]);
    expect(e.watchedAs('sim-nodesonly')).toBe('sim-admin');
  });

  it('off for a context: no pods watch, and free GPUs say they are off', async () => {
    const { env, e, free, until } = await start('sim-admin', { freeGpus: false });
    await until(() => e.snapshot().contexts[0]?.inventory !== null, 'the node list');
    expect(free()).toMatchObject({ state: 'unknown', reason: 'off' });
    expect(env.sim.control.requestLog().some((r) => r.path.startsWith('/api/v1/pods'))).toBe(false);
  });
});
