/**
 * The shared check of connections the cluster (or our own configuration) refuses from the start: the
 * named phase with its one sentence, no inventory invented, no alert, the tray showing unreachable, and
 * configuration errors waiting for the user instead of retrying on a timer.
 */
import { expect } from 'vitest';
import type { ConnectionPhase } from '../../common/connection.ts';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';
import { expectCalm, startRun } from './harness.ts';
import { caData } from './kubeconfig.ts';
import type { Cleanup } from './scope.ts';

export interface Refused {
  fault: string;
  context(s: SimContext): Promise<ResolvedContext> | ResolvedContext;
  phase: ConnectionPhase;
  message: RegExp;
  /** Configuration errors wait for the user (retryNow) or a kubeconfig edit. */
  retries: boolean;
  also?: () => void;
}

/** The sim's server and CA, for a kubeconfig cluster entry. */
export const ca = (s: SimContext) => ({
  server: s.sim.url,
  'certificate-authority-data': caData(s.sim.caPem),
});

export async function homelab(cleanup: (...fns: Cleanup[]) => void): Promise<SimContext> {
  const s = await startSimContext({ scenario: 'homelab' });
  cleanup(() => s.cleanup());
  return s;
}

export async function checkRefused(f: Refused, cleanup: (...fns: Cleanup[]) => void): Promise<void> {
  const s = await homelab(cleanup);
  const run = startRun([await f.context(s)]);
  cleanup(() => run.stop());
  await run.waitFor(
    () => run.ctx().connection.phase === f.phase && f.message.test(run.ctx().connection.message ?? ''),
    `${f.phase} with the right words`,
  );
  expect(run.ctx().connection.retryAt === null).toBe(!f.retries);
  await expectCalm(run, null);
  expect(run.alerts).toEqual([]);
  expect(run.engine.snapshot().health).toBe('unreachable');
  f.also?.();
}
