/** A context's health in the window's words, and the overview's order: worst first, then by name. */
import type { ContextSnapshot, FleetHealth } from '../../common/fleet.ts';
import { byWorstFirst, type ContextHealth, contextHealth } from '../../common/health.ts';
import type { MessageKey } from '../../common/i18n/catalog-types.ts';
import { PHASE_KEYS } from '../../common/i18n/phase-keys.ts';

// The classifier is common/health.ts, shared with the tray and the snapshot; this file only words it.
export { isErrorPhase } from '../../common/health.ts';
export type CardHealth = ContextHealth;
export const cardHealth = contextHealth;

/** The message of each state (catalog keys: the words are in common/i18n/catalogs). */
export const HEALTH_KEYS: Readonly<Record<CardHealth, MessageKey>> = {
  error: 'health.card.error',
  down: 'health.card.down',
  degraded: 'health.card.degraded',
  connecting: 'health.card.connecting',
  ready: 'health.card.ready',
  empty: 'health.card.empty',
};

export const FLEET_HEALTH_KEYS: Readonly<Record<FleetHealth, MessageKey>> = {
  unreachable: 'health.fleet.unreachable',
  down: 'health.fleet.down',
  degraded: 'health.fleet.degraded',
  'all-ready': 'health.fleet.allReady',
  idle: 'health.fleet.idle',
  paused: 'health.fleet.paused',
};

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Worst state first; within a state, by name, so the order is stable. */
export function sortContexts(contexts: readonly ContextSnapshot[]): ContextSnapshot[] {
  return [...contexts].sort((a, b) => byWorstFirst(a, b) || collator.compare(a.context, b.context));
}

export { PHASE_KEYS };
