/**
 * Pure: how healthy one context and the whole fleet are — the one classifier behind the tray icon, the
 * overview cards (and their worst-first order) and the snapshot's `health` that `watch -o json` prints.
 *
 * A context that is live with zero GPU nodes is `empty` ("no GPU nodes"), never "all ready": there is
 * nothing whose readiness could be vouched for, so for the fleet it counts like a context with no data
 * yet (`idle`), and a fleet of only such contexts is `idle`, not `all-ready`.
 */
import type { ConnectionPhase } from './connection.ts';
import type { ContextSnapshot, FleetHealth } from './fleet.ts';

/** One context: cannot be read (error), its GPU nodes all down / some down / all ready, no data yet, or no GPU nodes. */
export type ContextHealth = 'error' | 'down' | 'degraded' | 'connecting' | 'ready' | 'empty';

const ERROR_PHASES: ReadonlySet<ConnectionPhase> = new Set([
  'unreachable',
  'unauthorized',
  'forbidden',
  'config-error',
]);

/** The phases in which the context cannot be read (credentials, config or network). */
export function isErrorPhase(phase: ConnectionPhase): boolean {
  return ERROR_PHASES.has(phase);
}

/** What the classifier reads of a context: a ContextSnapshot, or the tray's TrayContext. */
export interface HealthInput {
  connection: { phase: ConnectionPhase };
  inventory: { ready_gpu_nodes: number; total_gpu_nodes: number } | null;
  /** GPU nodes held as flapping (ContextSnapshot.flapping): degraded while there are any. */
  flapping?: readonly string[];
}

export function contextHealth(ctx: HealthInput): ContextHealth {
  if (isErrorPhase(ctx.connection.phase)) return 'error';
  const inv = ctx.inventory;
  if (!inv) return 'connecting';
  if (inv.total_gpu_nodes === 0) return ctx.connection.phase === 'live' ? 'empty' : 'connecting';
  if (inv.ready_gpu_nodes === 0) return 'down';
  if (inv.ready_gpu_nodes < inv.total_gpu_nodes) return 'degraded';
  // A flapping node that is Ready this minute is no reason for "all ready": the card and the tray icon
  // would flip between ready and degraded with every flap, after the one alert that said it flaps.
  if ((ctx.flapping?.length ?? 0) > 0) return 'degraded';
  return 'ready';
}

const RANK: Readonly<Record<ContextHealth, number>> = {
  error: 0,
  down: 1,
  degraded: 2,
  connecting: 3,
  ready: 4,
  empty: 5,
};

/** Worst first (a comparator; ties are 0, so a stable sort keeps the caller's order). */
export function byWorstFirst(a: ContextSnapshot, b: ContextSnapshot): number {
  return RANK[contextHealth(a)] - RANK[contextHealth(b)];
}

const AS_FLEET: Readonly<Record<ContextHealth, Exclude<FleetHealth, 'paused'>>> = {
  error: 'unreachable',
  down: 'down',
  degraded: 'degraded',
  ready: 'all-ready',
  connecting: 'idle',
  empty: 'idle',
};

const FLEET_RANK: Readonly<Record<Exclude<FleetHealth, 'paused'>, number>> = {
  unreachable: 0,
  down: 1,
  degraded: 2,
  'all-ready': 3,
  idle: 4,
};

/** The tray's state: paused alerts win (the user must see that nothing will notify them), then the worst context. */
export function fleetHealth(contexts: readonly ContextSnapshot[], alertsPaused: boolean): FleetHealth {
  if (alertsPaused) return 'paused';
  let worst: Exclude<FleetHealth, 'paused'> = 'idle';
  for (const ctx of contexts) {
    const h = AS_FLEET[contextHealth(ctx)];
    if (FLEET_RANK[h] < FLEET_RANK[worst]) worst = h;
  }
  return worst;
}
