/**
 * Fault matrix, write-back: a cluster without the CRD and an apply answered 409 Conflict. The context's
 * write-back state names the problem in one sentence while monitoring goes on, untouched; a conflict
 * clears by itself once the server accepts the apply again.
 */
import { describe, expect, it } from 'vitest';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { configMapPath } from '../../main/writeback/configmap-writer.ts';
import { WritebackHub } from '../../main/writeback/hub.ts';
import { DEFAULT_CRD_GROUP, type WriteEvent } from '../../main/writeback/index.ts';
import { crdMissingMessage, inventoryPath } from '../../main/writeback/status-writer.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { allReady, type EngineRun, startRun } from './harness.ts';
import { useCleanups } from './scope.ts';
import { startWritebackSim, startWriter } from './writeback-sim.ts';

const cleanup = useCleanups();

async function liveWithWriteback(install: boolean) {
  const { s } = await startWritebackSim(cleanup, { scenario: 'homelab' }, install);
  allReady(s.sim);
  const run: EngineRun = startRun([s.context()]);
  const before = await run.live();
  const writes: WriteEvent[] = [];
  const hub = new WritebackHub(run.engine, {}, (e) => writes.push(e));
  cleanup(
    () => run.stop(),
    () => hub.stop(),
  );
  const start = () =>
    hub.set([s.context()], () => ({
      group: DEFAULT_CRD_GROUP,
      configMapNamespace: 'kube-system',
      minIntervalMs: 10,
    }));
  return { s, run, before, writes, start };
}

const writeback = (run: EngineRun) => run.ctx().writeback;

describe('write-back faults never touch monitoring', () => {
  it('CRD missing: crd-missing with how to install it; the ConfigMap is still written; monitoring stays live', async () => {
    const { run, before, writes, start } = await liveWithWriteback(false);
    start();
    await run.waitFor(() => writeback(run).phase === 'crd-missing', 'crd-missing');
    expect(writeback(run).message).toContain(crdMissingMessage(DEFAULT_CRD_GROUP));
    await run.waitFor(
      () => writes.some((w) => w.target === 'configmap' && w.action === 'written'),
      'the ConfigMap',
    );
    expect(run.ctx().connection.phase).toBe('live');
    expect(run.ctx().inventory).toEqual(before);
    expect(run.alerts).toEqual([]);
  });

  it('409 Conflict on apply: conflict in words while it lasts, written once the server accepts again', async () => {
    const { s, run, before, writes, start } = await liveWithWriteback(true);
    s.sim.control.failNext(1_000_000, 409);
    start();
    await run.waitFor(() => writeback(run).phase === 'conflict', 'conflict');
    expect(writeback(run).message).toMatch(/another field manager owns some fields \(409 Conflict\)\./);
    expect(run.ctx().connection.phase).toBe('live');
    expect(writes.every((w) => w.action === 'failed')).toBe(true);
    s.sim.control.failNext(0, 409);
    await run.waitFor(
      () =>
        ['status', 'configmap'].every((t) => writes.some((w) => w.target === t && w.action === 'written')),
      'both writes',
      15_000,
    );
    expect(writeback(run).phase).toBe('idle');
    expect(run.ctx().inventory).toEqual(before);
    expect(run.alerts).toEqual([]);
  });

  it('stale inventories are never written: virtual time passes and no PATCH reaches the server', async () => {
    const { s, client, inventory: fresh } = await startWritebackSim(cleanup);
    // The last-known inventory of an unreachable cluster: something else than what is there now.
    const stale: GpuInventoryStatus = {
      ...fresh,
      nodes: fresh.nodes.slice(1),
      total_gpu_nodes: fresh.total_gpu_nodes - 1,
    };
    const clock = new ManualClock();
    const events: WriteEvent[] = [];
    const writer = startWriter(cleanup, client, (e) => events.push(e), { clock });
    // Moves virtual time on while real requests get their turn, until `done` (or gives up).
    const pump = async (done: () => boolean, rounds: number) => {
      for (let i = 0; i < rounds && !done(); i++) {
        clock.advance(60_000);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    s.sim.control.resetRequestLog();
    writer.update(stale, true);
    await pump(() => false, 40);
    expect(events).toEqual([]);
    expect(clock.pending).toBe(0);
    // A fresh inventory after it: written once per target, and nothing of the stale one before it.
    writer.update(fresh, false);
    await pump(() => events.length >= 2, 2000);
    const patches = s.sim.control.requestLog().filter((r) => r.method === 'PATCH');
    expect(events.map((e) => [e.target, e.action]).sort()).toEqual([
      ['configmap', 'written'],
      ['status', 'written'],
    ]);
    expect(patches.map((p) => p.path.split('?')[0])).toEqual(
      expect.arrayContaining([inventoryPath(DEFAULT_CRD_GROUP, 'status'), configMapPath('kube-system')]),
    );
    expect(patches).toHaveLength(2);
    const held = JSON.parse(
      (
        await client.request('GET', inventoryPath(DEFAULT_CRD_GROUP), {
          headers: { Accept: 'application/json' },
        })
      ).body,
    ) as { status: GpuInventoryStatus };
    expect(held.status.total_gpu_nodes).toBe(fresh.total_gpu_nodes);
  });
});
