/**
 * Fault matrix, write-back: a cluster without the CRD and an apply answered 409 Conflict. The context's
 * write-back state names the problem in one sentence while monitoring goes on, untouched; a conflict
 * clears by itself once the server accepts the apply again.
 */
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../main/kube/clock.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { WritebackHub } from '../../main/writeback/hub.ts';
import { DEFAULT_CRD_GROUP, installWriteback, type WriteEvent } from '../../main/writeback/index.ts';
import { crdMissingMessage } from '../../main/writeback/status-writer.ts';
import { startSimContext } from '../helpers/sim-context.ts';
import { allReady, type EngineRun, expectCalm, startRun } from './harness.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

async function liveWithWriteback(install: boolean) {
  const s = await startSimContext({ scenario: 'homelab' });
  cleanup(() => s.cleanup());
  allReady(s.sim);
  if (install) {
    const client = new ContextClient(s.context());
    await installWriteback(client, { group: DEFAULT_CRD_GROUP, clock: systemClock });
    client.close();
  }
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

  it('the cluster unreachable: nothing is written from the stale inventory', async () => {
    const { s, run, before, writes, start } = await liveWithWriteback(true);
    await s.sim.close();
    await run.waitForPhase('unreachable');
    start();
    // The hub hands a stale inventory to the writer, which drops it at once: nothing is even scheduled.
    expect(writeback(run)).toMatchObject({ phase: 'idle', writes: 0 });
    expect(writes).toEqual([]);
    expectCalm(run, before);
  });
});
