/**
 * Free GPUs read from the in-cluster controller's GpuInventory status: shown as the controller's (per
 * product, no nodes), and marked stale while the leader's freshness mark (the Lease annotation) is a
 * lease duration old, though the Lease itself is still renewed. Against the sim over real HTTPS, with a
 * stand-in writing what the leader would; engine time is a ManualClock.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ClusterFree } from '../../../common/free-gpus.ts';
import type { FreeGpusSummary, GpuInventoryStatus } from '../../../common/inventory.ts';
import { LeaderStandIn } from '../../../test/helpers/controller-writer.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../../test/helpers/sim-context.ts';
import { ContextClient } from '../../kube/context-client.ts';
import { FleetEngine } from '../engine.ts';
import { LEASE_POLL_MS } from './lease-poll.ts';

let env: SimContext;
let engine: FleetEngine | null = null;
let writer: ContextClient | null = null;
beforeEach(async () => {
  env = await startSimContext({ scenario: 'homelab' });
});
afterEach(async () => {
  engine?.stop();
  engine = null;
  writer?.close();
  writer = null;
  await env.cleanup();
});

const FREE: FreeGpusSummary = {
  state: 'known',
  reason: null,
  free_total: 3,
  products: [
    {
      label: 'RTX 4070 Laptop GPU',
      product: 'NVIDIA-GeForce-RTX-4070-Laptop-GPU',
      kind: 'whole',
      profile: null,
      nodes: 4,
      capacity: 4,
      allocatable: 4,
      in_use: 1,
      free: 3,
      max_free_on_one_node: 1,
    },
  ],
  pending: 1,
};

const status: GpuInventoryStatus = {
  observed_at: '2026-11-29T12:00:00Z',
  total_gpu_nodes: 4,
  ready_gpu_nodes: 4,
  total_gpus: 4,
  nodes: ['nuc1', 'nuc2', 'omen', 'omen2'].map((name) => ({
    name,
    ready: true,
    product: 'NVIDIA-GeForce-RTX-4070-Laptop-GPU',
    count: 1,
    memory: 8188,
    workload: 'container',
  })),
  free_gpus: FREE,
};

it('free GPUs from the controller are its own, and stale while its freshness mark is old', async () => {
  const clock = new ManualClock();
  writer = new ContextClient(env.context('sim-revocable'));
  const leader = new LeaderStandIn(writer);
  await leader.setUp(clock.now());
  await leader.writeStatus(status);
  const t0 = clock.now();
  const e = new FleetEngine({
    clock,
    source: () => ({ setting: 'controller', namespace: 'gpu-fleet', group: 'gpufleet.io' }),
  });
  engine = e;
  let changes = 0;
  e.on((ev) => {
    if (ev.type === 'snapshot') changes++;
  });
  e.setContexts([env.context('sim-admin')]);
  const free = (): ClusterFree | undefined => e.snapshot().contexts[0]?.free;
  const until = (check: () => boolean, what: string) =>
    pollUntil(check, what, { each: () => clock.advance(0) });
  await until(() => free()?.state === 'known', 'the figures from the status');
  expect(free()).toMatchObject({ source: 'controller', stale: false, free_total: 3, nodes: [] });

  // Renewed, but the leader no longer moves its freshness mark (its watch failed): the tray sees it at
  // its next poll, 20 s after the mark.
  clock.advance(LEASE_POLL_MS);
  const seen = e.snapshot().contexts[0]?.source?.renewedAt;
  await leader.renew(clock.now(), 'controller-0', 15, t0);
  clock.advance(LEASE_POLL_MS);
  await until(() => e.snapshot().contexts[0]?.source?.renewedAt !== seen, 'the renewal');
  expect(e.snapshot().contexts[0]?.source?.active).toBe('controller');
  // 20 s after the mark: more than a lease duration (15 s), less than the 2 × that drops the source.
  expect(free()).toMatchObject({ source: 'controller', stale: true, free_total: 3 });

  // The mark moves again with the next renew: fresh.
  await leader.renew(clock.now());
  const before = changes;
  clock.advance(LEASE_POLL_MS);
  await until(() => free()?.stale === false, 'the fresh mark');
  expect(changes).toBeGreaterThan(before);
});
