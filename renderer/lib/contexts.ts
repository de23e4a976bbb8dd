/** A context's health in the window's words, and the overview's order: worst first, then by name. */
import type { ContextSnapshot, FleetHealth } from '../../common/fleet.ts';
import { byWorstFirst, type ContextHealth, contextHealth } from '../../common/health.ts';

// The classifier is common/health.ts, shared with the tray and the snapshot; this file only words it.
export { isErrorPhase } from '../../common/health.ts';
export type CardHealth = ContextHealth;
export const cardHealth = contextHealth;

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
  idle: 'No GPU nodes to report',
  paused: 'Alerts paused',
};

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Worst state first; within a state, by name, so the order is stable. */
export function sortContexts(contexts: readonly ContextSnapshot[]): ContextSnapshot[] {
  return [...contexts].sort((a, b) => byWorstFirst(a, b) || collator.compare(a.context, b.context));
}
