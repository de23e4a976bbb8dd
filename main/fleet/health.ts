/** Pure: how healthy one context and the whole fleet are, worst first, for the tray icon and card order. */
import type { ConnectionPhase } from '../../common/connection.ts';
import type { ContextSnapshot, FleetHealth } from '../../common/fleet.ts';

const TROUBLE: ReadonlySet<ConnectionPhase> = new Set([
  'unreachable',
  'unauthorized',
  'forbidden',
  'config-error',
]);

/** A context's own health; `idle` while it has not produced an inventory yet. */
export function contextHealth(ctx: ContextSnapshot): Exclude<FleetHealth, 'paused'> {
  if (TROUBLE.has(ctx.connection.phase)) return 'unreachable';
  const inv = ctx.inventory;
  if (!inv) return 'idle';
  if (inv.total_gpu_nodes > 0 && inv.ready_gpu_nodes === 0) return 'down';
  if (inv.ready_gpu_nodes < inv.total_gpu_nodes) return 'degraded';
  return 'all-ready';
}

const RANK: Record<Exclude<FleetHealth, 'paused'>, number> = {
  unreachable: 0,
  down: 1,
  degraded: 2,
  'all-ready': 3,
  idle: 4,
};

/** Worst first; ties keep the user's order of contexts. */
export function byWorstFirst(a: ContextSnapshot, b: ContextSnapshot): number {
  return RANK[contextHealth(a)] - RANK[contextHealth(b)];
}

/** The tray's state: paused alerts win (the user must see that nothing will notify them), then the worst context. */
export function fleetHealth(contexts: readonly ContextSnapshot[], alertsPaused: boolean): FleetHealth {
  if (alertsPaused) return 'paused';
  let worst: Exclude<FleetHealth, 'paused'> = 'idle';
  for (const ctx of contexts) {
    const h = contextHealth(ctx);
    if (RANK[h] < RANK[worst]) worst = h;
  }
  return worst;
}
