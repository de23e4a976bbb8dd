/**
 * Flap detection: a node whose readiness changes more than `flapThreshold` times within
 * `flapWindowMs` is flapping. It gets one alert, then the policy ignores it until it has not
 * changed for a whole window; after that it is judged like any other node again.
 */

import type { AlertRules } from '../../common/alert-rules.ts';
import { copyDict, dict, hasKey, own } from '../../common/dict.ts';
import type { ContextPolicy, InventoryView, PolicyState } from './types.ts';

export interface FlapResult {
  changes: Record<string, number[]>;
  flapping: Record<string, number>;
  newlyFlapping: string[];
}

export function trackFlaps(
  cp: ContextPolicy,
  view: InventoryView,
  at: number,
  rules: AlertRules,
): FlapResult {
  const horizon = at - rules.flapWindowMs;
  const changes = dict<number[]>();
  for (const [name, times] of Object.entries(cp.changes)) {
    const kept = times.filter((t) => t > horizon);
    if (kept.length > 0) changes[name] = kept;
  }
  const flapping = copyDict(cp.flapping);
  const newlyFlapping: string[] = [];
  const previous = cp.last?.nodes;
  for (const [name, facts] of Object.entries(view.nodes)) {
    const before = own(previous, name);
    // A node first seen, or back after being absent, is not a change of readiness.
    if (before === undefined || before.ready === facts.ready) continue;
    const times = [...(own(changes, name) ?? []), at];
    changes[name] = times;
    if (hasKey(flapping, name)) flapping[name] = at;
    else if (times.length > rules.flapThreshold) {
      flapping[name] = at;
      newlyFlapping.push(name);
    }
  }
  for (const [name, lastChange] of Object.entries(flapping)) {
    if (at - lastChange >= rules.flapWindowMs) delete flapping[name];
  }
  return { changes, flapping, newlyFlapping };
}

/** When the earliest flapping node will have been stable for a window. */
export function nextUnflapAt(cp: ContextPolicy, rules: AlertRules): number | null {
  const times = Object.values(cp.flapping);
  return times.length === 0 ? null : Math.min(...times) + rules.flapWindowMs;
}

/** The nodes of a context the policy holds as flapping, by name (what the fleet snapshot shows). */
export function flappingNodes(state: PolicyState, context: string): string[] {
  const cp = own(state.contexts, context);
  return cp ? Object.keys(cp.flapping).sort() : [];
}
