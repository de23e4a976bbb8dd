/** How bad a context's state is, in words and as a rank, so the overview shows the worst first. */
import type { ConnectionPhase } from '../../common/connection.ts';
import type { ContextSnapshot, FleetHealth } from '../../common/fleet.ts';

export type CardHealth = 'error' | 'down' | 'degraded' | 'connecting' | 'ready' | 'empty';

const ERROR_PHASES: ReadonlySet<ConnectionPhase> = new Set([
  'unreachable',
  'unauthorized',
  'forbidden',
  'config-error',
]);

export function isErrorPhase(phase: ConnectionPhase): boolean {
  return ERROR_PHASES.has(phase);
}

export function cardHealth(ctx: ContextSnapshot): CardHealth {
  if (isErrorPhase(ctx.connection.phase)) return 'error';
  const inv = ctx.inventory;
  if (!inv) return 'connecting';
  if (inv.total_gpu_nodes === 0) return ctx.connection.phase === 'live' ? 'empty' : 'connecting';
  if (inv.ready_gpu_nodes === 0) return 'down';
  if (inv.ready_gpu_nodes < inv.total_gpu_nodes) return 'degraded';
  return 'ready';
}

const RANK: Record<CardHealth, number> = {
  error: 0,
  down: 1,
  degraded: 2,
  connecting: 3,
  ready: 4,
  empty: 5,
};

export const HEALTH_LABELS: Record<CardHealth, string> = {
  error: 'Not reachable',
  down: 'GPU nodes down',
  degraded: 'Degraded',
  connecting: 'Waiting for data',
  ready: 'All ready',
  empty: 'No GPU nodes',
};

export const FLEET_HEALTH_LABELS: Record<FleetHealth, string> = {
  unreachable: 'A cluster is unreachable',
  down: 'GPU nodes down',
  degraded: 'Degraded',
  'all-ready': 'All GPU nodes ready',
  idle: 'Nothing monitored',
  paused: 'Alerts paused',
};

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Worst state first; within a state, by name, so the order is stable. */
export function sortContexts(contexts: readonly ContextSnapshot[]): ContextSnapshot[] {
  return [...contexts].sort(
    (a, b) => RANK[cardHealth(a)] - RANK[cardHealth(b)] || collator.compare(a.context, b.context),
  );
}
