/**
 * The controller writes free GPUs per product into the GpuInventory status (free_gpus), and a finished
 * pod moves them; a tray reading that status (source controller) shows the same figures without
 * watching pods. Against the sim's small lab, on the harness's ManualClock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FreeGpusSummary } from '../../common/inventory.ts';
import { readInventoryStatus } from '../../main/fleet/source/read-status.ts';
import { freeFromSummary } from '../../main/inventory/free-summary.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { type Fleet, startFleet } from './harness.ts';

let fleet: Fleet | null = null;
afterEach(async () => {
  await fleet?.close();
  fleet = null;
});

const freeOf = async (f: Fleet) =>
  ((await f.status()) as unknown as { free_gpus?: FreeGpusSummary } | undefined)?.free_gpus;

describe('free GPUs in the GpuInventory', () => {
  it('the leader writes free_gpus per product; a completed pod frees its GPUs in the status', async () => {
    const f = await startFleet(['replica-a'], { scenario: 'smalllab:3600000' });
    fleet = f;
    for (const r of f.replicas) r.controller.start();
    await f.run(20_000, () => f.leaders().length === 1);
    await f.run(30_000, async () => (await freeOf(f))?.state === 'known');
    const first = await freeOf(f);
    expect(first?.free_total).toBe(7);
    expect(first?.pending).toBe(1);
    expect(first?.products.find((p) => p.label === 'A30 MIG 1g.6gb')).toMatchObject({
      free: 3,
      allocatable: 4,
      in_use: 1,
    });

    const admin = new ContextClient(f.s.context('sim-admin'));
    try {
      const r = await admin.request('PATCH', '/api/v1/namespaces/research/pods/eval-harness-m3v8q/status', {
        headers: { 'Content-Type': 'application/merge-patch+json', Accept: 'application/json' },
        body: JSON.stringify({ status: { phase: 'Succeeded' } }),
      });
      expect(r.status).toBe(200);
    } finally {
      admin.close();
    }
    await f.run(30_000, async () => (await freeOf(f))?.free_total === 8);

    // What a tray reading the controller makes of the status: the same figures, no pods watched.
    const read = readInventoryStatus(await f.status());
    expect(read.ok).toBe(true);
    const summary = read.ok ? read.status.free_gpus : undefined;
    expect(summary && freeFromSummary(summary).products.map((p) => [p.label, p.free])).toContainEqual([
      'A30 MIG 1g.6gb',
      4,
    ]);
  });
});
