/**
 * The alert policy: pure functions over a virtual clock (epoch ms passed in, no timers).
 * `evaluate` consumes one observation of one context; `tick` lets the host call back at
 * `nextCheckAt` without a new observation so hold-downs and thresholds expire on time.
 * While a context is unreachable its (last known) inventory is ignored: unreachability is never
 * reported as a ready drop, and a drop still pending when the cluster went away is dropped.
 */

import type { AlertRules } from '../../common/alert-rules.ts';
import { hasKey, own, withKey, withoutKey } from '../../common/dict.ts';
import { contextNextCheck, reachableStep, unreachableStep } from './context-step.ts';
import { isSnoozed, type SnoozeState } from './snooze.ts';
import { makeAlert } from './text.ts';
import {
  type InventoryView,
  initialContextPolicy,
  type Observation,
  type PolicyAlert,
  type PolicyState,
  viewOf,
} from './types.ts';

export interface PolicyResult {
  state: PolicyState;
  alerts: PolicyAlert[];
  /** The earliest instant (epoch ms) at which `tick` may produce something; null when nothing is waiting. */
  nextCheckAt: number | null;
}

/** The earliest instant any context needs a `tick`. */
export function nextCheckAt(state: PolicyState, rules: AlertRules): number | null {
  let min: number | null = null;
  for (const cp of Object.values(state.contexts)) {
    const t = contextNextCheck(cp, rules);
    if (t !== null && (min === null || t < min)) min = t;
  }
  return min;
}

function step(
  state: PolicyState,
  obs: Observation,
  view: InventoryView | null,
  rules: AlertRules,
  snooze: SnoozeState,
) {
  const cp = own(state.contexts, obs.context) ?? initialContextPolicy();
  const out = obs.reachable
    ? reachableStep(cp, obs.context, obs.at, view, rules)
    : unreachableStep(cp, obs.context, obs.at, rules);
  const suppressed = isSnoozed(snooze, obs.context, obs.at);
  const alerts = out.alerts.map((f) => makeAlert(f, suppressed));
  return { state: { contexts: withKey(state.contexts, obs.context, out.cp) }, alerts };
}

export function evaluate(
  state: PolicyState,
  obs: Observation,
  rules: AlertRules,
  snooze: SnoozeState,
): PolicyResult {
  const view = obs.reachable && obs.inventory !== null ? viewOf(obs.inventory) : null;
  const out = step(state, obs, view, rules, snooze);
  return { ...out, nextCheckAt: nextCheckAt(out.state, rules) };
}

/** Re-judges every context that is due at `now` against what it last saw. */
export function tick(state: PolicyState, now: number, rules: AlertRules, snooze: SnoozeState): PolicyResult {
  let current = state;
  const alerts: PolicyAlert[] = [];
  for (const [context, cp] of Object.entries(state.contexts)) {
    const due = contextNextCheck(cp, rules);
    if (due === null || due > now) continue;
    const obs: Observation = { at: now, context, reachable: cp.reachable, inventory: null };
    const out = step(current, obs, cp.reachable ? cp.last : null, rules, snooze);
    current = out.state;
    alerts.push(...out.alerts);
  }
  return { state: current, alerts, nextCheckAt: nextCheckAt(current, rules) };
}

/** Drops what the policy remembers of a context (it now watches another cluster, or is no longer monitored). */
export function forgetContext(state: PolicyState, context: string): PolicyState {
  if (!hasKey(state.contexts, context)) return state;
  return { contexts: withoutKey(state.contexts, context) };
}
