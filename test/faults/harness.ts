/**
 * The fault matrix's harness: a FleetEngine with shrunk timers (10 ms backoff, 5 s request timeouts,
 * hold-down 0 so any false ready-drop would alert at once) that records every event, waits on conditions
 * event-driven (a generous limit fails the test, it asserts no speed), and checks the invariants every
 * fault must keep: no ready-drop alert, the last inventory kept and marked stale.
 */
import { expect } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import type { ConnectionPhase, ConnectionState } from '../../common/connection.ts';
import type { ContextSnapshot } from '../../common/fleet.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import type { PolicyAlert } from '../../main/alerts/types.ts';
import { type EngineEvent, type EngineOptions, FleetEngine } from '../../main/fleet/engine.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';
import { type RunningSim, type SimOptions, startSim } from '../../sim/index.ts';
import { caData, contextFor, tempDir } from './kubeconfig.ts';

export const FAST: EngineOptions = {
  watcher: {
    backoff: { initialMs: 10, maxMs: 40 },
    // A quiet sim sends nothing for a minute (bookmarks): only the stall test shrinks this.
    stallTimeoutMs: 60_000,
    listTimeoutMs: 5000,
    unreachableAfterAttempts: 3,
    unreachableAfterMs: 60_000,
    // The faults here last: shown at once, as the shrunk backoff shows them fast (the quiet time before
    // a live context shows a failure is tested on virtual time in main/kube/list-watcher.test.ts).
    reconnectingAfterMs: 0,
    watchSeconds: [30, 30],
  },
  coalesceMs: 5,
  // These faults are aimed at the node watch (failNext hits the next request): the pods watch of free
  // GPUs, the same ListWatcher, is off here and has its own tests (main/fleet/free-gpus.test.ts).
  freeGpus: () => false,
  snapshotMs: 5,
  rules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0, flapThreshold: 1000 },
  makeClient: (ctx) => new ContextClient(ctx, { requestTimeoutMs: 5000, execTimeoutMs: 5000 }),
};

export const GPU_NODES = ['nuc1', 'nuc2', 'omen', 'omen2'];

/** The homelab with its four GPU nodes Ready, so that a false drop would show. */
export function allReady(sim: RunningSim): void {
  for (const n of GPU_NODES) sim.control.setNodeReady(n, 'True');
}

/**
 * A simulator (homelab by default) with its GPU nodes Ready and an engine live on it through a throwaway
 * kubeconfig of its admin token. The caller stops the run and closes the sim.
 */
export async function liveOnSim(
  options: SimOptions = { scenario: 'homelab' },
): Promise<{ sim: RunningSim; run: EngineRun }> {
  const sim = await startSim(options);
  allReady(sim);
  const ctx = contextFor(
    tempDir(),
    { server: sim.url, 'certificate-authority-data': caData(sim.caPem) },
    { token: sim.tokens.admin },
  );
  const run = startRun([ctx]);
  await run.live();
  return { sim, run };
}

/** An engine with FAST options (overridable) monitoring these contexts, recorded. */
export function startRun(contexts: ResolvedContext[], opts: EngineOptions = {}): EngineRun {
  const run = new EngineRun(new FleetEngine({ ...FAST, ...opts }));
  run.engine.setContexts(contexts);
  return run;
}

/** Records every event of an engine (one of ours, or an AppCore's) and waits on its state. */
export class EngineRun {
  readonly events: EngineEvent[] = [];
  #waiters = new Set<() => void>();

  constructor(readonly engine: FleetEngine) {
    engine.on((e) => {
      this.events.push(e);
      for (const w of [...this.#waiters]) w();
    });
  }

  get alerts(): PolicyAlert[] {
    return this.events.flatMap((e) => (e.type === 'alert' ? [e.alert] : []));
  }

  states(context?: string): ConnectionState[] {
    return this.events.flatMap((e) =>
      e.type === 'connection' && (context === undefined || e.context === context) ? [e.state] : [],
    );
  }

  ctx(name?: string): ContextSnapshot {
    const all = this.engine.snapshot().contexts;
    const c = name === undefined ? all[0] : all.find((x) => x.context === name);
    if (!c) throw new Error(`no context ${name ?? '(first)'}`);
    return c;
  }

  /** Resolves when check() holds, checked after every engine event and every 20 ms. */
  waitFor(check: () => boolean, what: string, limitMs = 10_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = () => {
        if (!check()) return;
        cleanup();
        resolve();
      };
      const poll = setInterval(done, 20);
      const timer = setTimeout(() => {
        cleanup();
        const phases = this.states()
          .map((s) => s.phase)
          .join(' → ');
        reject(
          new Error(
            `timed out waiting for ${what} (phases: ${phases}; last: ${this.states().at(-1)?.message})`,
          ),
        );
      }, limitMs);
      const cleanup = () => {
        clearInterval(poll);
        clearTimeout(timer);
        this.#waiters.delete(done);
      };
      this.#waiters.add(done);
    });
  }

  waitForPhase(phase: ConnectionPhase, context?: string): Promise<void> {
    return this.waitFor(() => this.ctx(context).connection.phase === phase, `phase ${phase}`);
  }

  /** Live, with the first inventory in. */
  async live(context?: string): Promise<GpuInventoryStatus> {
    await this.waitFor(() => {
      const c = this.ctx(context);
      return c.connection.phase === 'live' && c.inventory !== null && !c.stale;
    }, 'live with an inventory');
    return this.ctx(context).inventory as GpuInventoryStatus;
  }

  stop(): void {
    this.engine.stop();
  }
}

/** The same inventory as `before`, apart from observed_at. */
export function sameInventory(a: GpuInventoryStatus | null, before: GpuInventoryStatus): void {
  expect(a).not.toBeNull();
  expect({ ...a, observed_at: '' }).toEqual({ ...before, observed_at: '' });
}

/**
 * Lets the engine's pending zero-delay tasks run (the alert policy runs in a task of its own after the
 * inventory event that ended a wait): a timer set now fires after every timer of the same delay set
 * before it, so an alert that the last event caused is in `run.alerts` afterwards.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0));
}

/**
 * What every fault must keep: no ready-drop alert, and (once there was one) the last inventory, stale.
 * Settles first, so a drop caused by the very event that ended the caller's wait is seen.
 */
export async function expectCalm(
  run: EngineRun,
  before: GpuInventoryStatus | null,
  context?: string,
): Promise<void> {
  await settle();
  expect(run.alerts.filter((a) => a.kind === 'ready-drop')).toEqual([]);
  const c = run.ctx(context);
  if (before) {
    sameInventory(c.inventory, before);
    expect(c.stale).toBe(true);
  } else expect(c.inventory).toBeNull();
}
