/**
 * The harness's calm check must be able to fail: a ready-drop caused by the very inventory event that
 * ended a wait is decided in a later task, and `settle()` (which `expectCalm` awaits) lets it land.
 */
import { describe, expect, it } from 'vitest';
import { startSimContext } from '../helpers/sim-context.ts';
import { allReady, settle, startRun } from './harness.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

describe('fault harness', () => {
  it('sees a drop decided right after the inventory event that ended the wait', async () => {
    const s = await startSimContext({ scenario: 'homelab' });
    allReady(s.sim);
    const run = startRun([s.context('sim-admin')]);
    cleanup(
      () => s.cleanup(),
      () => run.stop(),
    );
    await run.live();
    s.sim.control.setNodeReady('omen', 'False');
    await run.waitFor(() => run.ctx().inventory?.ready_gpu_nodes === 3, 'the drop in the inventory');
    await settle();
    expect(run.alerts.map((a) => a.kind)).toContain('ready-drop');
  });
});
