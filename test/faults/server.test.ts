/**
 * Fault matrix, server side (the simulator over real HTTPS): faults that last show their named state with
 * the last inventory kept (stale) and no ready-drop alert, then heal; faults that pass (restart, 410)
 * recover by themselves, relisting only when the resourceVersion is gone.
 */
import { describe, expect, it } from 'vitest';
import type { ConnectionPhase } from '../../common/connection.ts';
import type { EngineOptions } from '../../main/fleet/engine.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import type { SimOptions } from '../../sim/index.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';
import { allReady, expectCalm, FAST, sameInventory, settle, startRun } from './harness.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

async function liveRun(sim: SimOptions = {}, opts: EngineOptions = {}, user = 'sim-admin') {
  const s = await startSimContext({ scenario: 'homelab', ...sim });
  allReady(s.sim);
  const run = startRun([s.context(user)], opts);
  cleanup(
    () => s.cleanup(),
    () => run.stop(),
  );
  const before = await run.live();
  s.sim.control.resetRequestLog();
  return { s, run, before };
}

const lists = (s: SimContext) =>
  s.sim.control.requestLog().filter((r) => /^\/api\/v1\/nodes\?/.test(r.path) && !r.path.includes('watch='));

interface Lasting {
  fault: string;
  user?: string;
  opts?: EngineOptions;
  inject(s: SimContext): Promise<void> | void;
  phase: ConnectionPhase;
  message: RegExp;
  /** Undoes the fault; absent where only the user can (a revoked token needs new credentials). */
  heal?(s: SimContext): Promise<void> | void;
}

const LASTING: Lasting[] = [
  {
    fault: 'a watch that goes half-open while the server is cut off (no answer on any connection)',
    opts: {
      makeClient: (ctx) => new ContextClient(ctx, { requestTimeoutMs: 250 }),
      watcher: { ...FAST.watcher, stallTimeoutMs: 400, probeTimeoutMs: 250 },
    },
    inject: (s) => {
      s.sim.control.halfOpenConnections();
      s.sim.control.partition('sim-admin', 'timeout');
    },
    phase: 'unreachable',
    message: /did not answer in time/,
    heal: (s) => s.sim.control.heal('sim-admin'),
  },
  {
    fault: 'responses slower than the request timeout',
    opts: {
      makeClient: (ctx) => new ContextClient(ctx, { requestTimeoutMs: 250 }),
      watcher: { ...FAST.watcher, listTimeoutMs: 250 },
    },
    inject: async (s) => {
      s.sim.control.setLatency(1000);
      await s.sim.control.restart();
    },
    phase: 'unreachable',
    message: /did not answer in time/,
    heal: (s) => s.sim.control.setLatency(0),
  },
  {
    fault: '401 after the credentials expired',
    user: 'sim-revocable',
    inject: async (s) => {
      s.sim.control.revokeToken('revocable');
      await s.sim.control.restart();
    },
    phase: 'unauthorized',
    message: /^The cluster rejected the credentials, or they have expired \(401\)\.$/,
  },
  {
    fault: '403 on every request',
    inject: async (s) => {
      s.sim.control.failNext(1_000_000, 403);
      await s.sim.control.restart();
    },
    phase: 'forbidden',
    message: /^Not allowed (listing|watching) nodes: simulated failure \(HTTP 403\)$/,
    heal: (s) => s.sim.control.failNext(0, 403),
  },
  {
    fault: '500 on every request',
    inject: async (s) => {
      s.sim.control.failNext(1_000_000, 500);
      await s.sim.control.restart();
    },
    phase: 'unreachable',
    message: /The API server failed while (listing|watching) nodes \(500/,
    heal: (s) => s.sim.control.failNext(0, 500),
  },
];

describe('faults that last: named state, nothing lost, no false ready-drop', () => {
  it.each(LASTING)('$fault → $phase', async (f) => {
    const { s, run, before } = await liveRun({}, f.opts, f.user);
    await f.inject(s);
    await run.waitFor(
      () => run.ctx().connection.phase === f.phase && f.message.test(run.ctx().connection.message ?? ''),
      `${f.phase} with the right words`,
    );
    await expectCalm(run, before);
    if (!f.heal) return;
    await f.heal(s);
    run.engine.retryNow();
    sameInventory(await run.live(), before);
    await settle();
    expect(run.alerts.filter((a) => a.kind === 'ready-drop')).toEqual([]);
  });

  it('server down: unreachable (never "0 ready"), the last inventory kept', async () => {
    const { s, run, before } = await liveRun();
    await s.sim.close();
    await run.waitForPhase('unreachable');
    expect(run.ctx().connection.message).toMatch(/refused the connection; the API server may be down/);
    await expectCalm(run, before);
    expect(run.engine.snapshot().health).toBe('unreachable');
  });
});

describe('faults that pass', () => {
  it('an API-server restart mid-watch: back to live from the same resourceVersion, no relist', async () => {
    const { s, run, before } = await liveRun();
    await s.sim.control.restart();
    // A change made after the restart arrives through the re-opened watch.
    s.sim.control.setNodeLabels('nuc1', { 'nvidia.com/gpu.workload.config': 'container' });
    const nuc1 = () => run.ctx().inventory?.nodes.find((n) => n.name === 'nuc1');
    await run.waitFor(() => nuc1()?.workload === 'container', 'the change after the restart');
    expect(await run.live()).toMatchObject({ ready_gpu_nodes: 4, total_gpus: before.total_gpus });
    expect(lists(s)).toEqual([]);
    await settle();
    expect(run.alerts).toEqual([]);
  });

  it('410 on the re-watch (HTTP status): one relist, nothing lost', async () => {
    const { s, run, before } = await liveRun();
    s.sim.control.failNext(1, 410);
    await s.sim.control.restart();
    await run.waitFor(() => lists(s).length === 1, 'the relist');
    sameInventory(await run.live(), before);
    await settle();
    expect(run.alerts).toEqual([]);
  });

  it('410 in the watch stream (history compacted while disconnected): one relist with the new state', async () => {
    const { s, run, before } = await liveRun();
    s.sim.control.stallWatches(true);
    s.sim.control.setNodeLabels('nuc1', { 'nvidia.com/gpu.count': '2' });
    s.sim.control.compact();
    await s.sim.control.restart();
    s.sim.control.stallWatches(false);
    await run.waitFor(() => run.ctx().inventory?.total_gpus === before.total_gpus + 1, 'the relisted change');
    expect(lists(s)).toHaveLength(1);
    expect((await run.live()).ready_gpu_nodes).toBe(4);
    await settle();
    expect(run.alerts).toEqual([]);
  });

  it('slow responses within the timeouts: live, the same inventory', async () => {
    const s = await startSimContext({ scenario: 'homelab' });
    allReady(s.sim);
    s.sim.control.setLatency(300);
    const run = startRun([s.context()]);
    cleanup(
      () => s.cleanup(),
      () => run.stop(),
    );
    const inv = await run.live();
    expect(inv).toMatchObject({ total_gpu_nodes: 4, ready_gpu_nodes: 4 });
    expect(run.states().map((st) => st.phase)).toEqual(['connecting', 'live']);
  });
});
