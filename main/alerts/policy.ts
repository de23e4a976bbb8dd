/**
 * The alert policy: pure functions over a virtual clock (epoch ms passed in, no timers).
 * `evaluate` consumes one observation of one context; `tick` lets the host call back at
 * `nextCheckAt` without a new observation so hold-downs and thresholds expire on time.
 * While a context is unreachable its (last known) inventory is ignored: unreachability is never
 * reported as a ready drop, and a drop still pending when the cluster went away is dropped.
 */

import type { AlertRules } from '../../common/alert-rules.ts';
import { hasKey, own, withKey, withoutKey } from '../../common/dict.ts';
import type { ClusterFree } from '../../common/free-gpus.ts';
import { contextNextCheck, reachableStep, unreachableStep } from './context-step.ts';
import { judgeNoFree } from './no-free.ts';
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

/**
 * The free GPUs of one context now (the optional no-free-GPU alert, no-free.ts): judged apart from the
 * nodes, so a pod's change costs a pass over the cluster's few products and not over its nodes.
 */
export function evaluateFree(
  state: PolicyState,
  obs: { at: number; context: string; free: ClusterFree },
  rules: AlertRules,
  snooze: SnoozeState,
): PolicyResult {
  const out = freeStep(state, obs.context, obs.at, obs.free, rules, snooze);
  return { ...out, nextCheckAt: nextCheckAt(out.state, rules) };
}

function freeStep(
  state: PolicyState,
  context: string,
  at: number,
  free: ClusterFree | undefined,
  rules: AlertRules,
  snooze: SnoozeState,
) {
  const cp = own(state.contexts, context) ?? initialContextPolicy();
  const out = judgeNoFree(cp.noFree, context, at, free, rules);
  if (out.noFree === cp.noFree && out.alerts.length === 0) return { state, alerts: [] };
  const suppressed = isSnoozed(snooze, context, at);
  const alerts = out.alerts.map((f) => makeAlert(f, suppressed));
  return { state: { contexts: withKey(state.contexts, context, { ...cp, noFree: out.noFree }) }, alerts };
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
    const free = freeStep(out.state, context, now, undefined, rules, snooze);
    current = free.state;
    alerts.push(...out.alerts, ...free.alerts);
  }
  return { state: current, alerts, nextCheckAt: nextCheckAt(current, rules) };
}

/** Drops what the policy remembers of a context (it now watches another cluster, or is no longer monitored). */
export function forgetContext(state: PolicyState, context: string): PolicyState {
  if (!hasKey(state.contexts, context)) return state;
  return { contexts: withoutKey(state.contexts, context) };
}
