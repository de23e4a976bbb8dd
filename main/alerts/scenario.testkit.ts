/**
 * Test kit for the alert policy: builds inventories from a compact node map and plays a timeline
 * like a host would, calling `tick` whenever `nextCheckAt` falls before the next step.
 * Each alert is summarised as "<t>s kind [nodes] before→after" (+ " (suppressed)").
 */

import { type AlertRules, DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { evaluate, tick } from './policy.ts';
import { countsAsReachable } from './reachability.ts';
import { NO_SNOOZE, type SnoozeState } from './snooze.ts';
import { INITIAL_POLICY_STATE, type PolicyAlert, type PolicyState } from './types.ts';

export type NodeSpec = boolean | { ready: boolean; cap: number; alloc: number };

export function inv(nodes: Record<string, NodeSpec>): GpuInventoryStatus {
  const entries = Object.entries(nodes).map(([name, spec]) => {
    const s = typeof spec === 'boolean' ? { ready: spec, cap: null, alloc: null } : spec;
    return {
      name,
      ready: s.ready,
      product: 'NVIDIA-GeForce-RTX-4070',
      count: 1,
      memory: 8188,
      workload: 'container',
      capacity_gpus: s.cap,
      allocatable_gpus: s.alloc,
    };
  });
  return {
    observed_at: '2026-11-29T21:40:00Z',
    total_gpu_nodes: entries.length,
    ready_gpu_nodes: entries.filter((e) => e.ready).length,
    total_gpus: entries.length,
    nodes: entries,
  };
}

/** [seconds, context, nodes] = reachable; [seconds, context, 'unreachable'] ; [seconds, 'snooze', fn]. */
export type Step =
  | [number, string, Record<string, NodeSpec>]
  | [number, string, 'unreachable']
  /** The watch stalled or was cut and is being re-opened; the host passes the last inventory it had. */
  | [number, string, 'reconnecting']
  | [number, string, 'connected-no-inventory']
  | [number, 'snooze', (s: SnoozeState, nowMs: number) => SnoozeState];

export const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
export const at = (s: number) => T0 + s * 1000;

export function summary(a: PolicyAlert): string {
  const s = (Date.parse(a.at) - T0) / 1000;
  const nodes = a.nodes.length > 0 ? ` [${a.nodes.join(',')}]` : '';
  return `${s}s ${a.context} ${a.kind}${nodes} ${a.before ?? '-'}→${a.after ?? '-'}${a.suppressed ? ' (suppressed)' : ''}`;
}

export interface Played {
  alerts: PolicyAlert[];
  state: PolicyState;
  nextCheckAt: number | null;
}

/** Plays the steps in order, ticking when due, and finally ticks up to `untilS` seconds (default: an hour past the last step). */
export function play(steps: Step[], rules: Partial<AlertRules> = {}, untilS?: number): Played {
  const r: AlertRules = { ...DEFAULT_ALERT_RULES, ...rules };
  let state = INITIAL_POLICY_STATE;
  let snooze: SnoozeState = NO_SNOOZE;
  let next: number | null = null;
  const alerts: PolicyAlert[] = [];
  const lastSeen = new Map<string, GpuInventoryStatus>();
  const runTicksBefore = (limit: number) => {
    while (next !== null && next <= limit) {
      const out = tick(state, next, r, snooze);
      state = out.state;
      alerts.push(...out.alerts);
      next = out.nextCheckAt;
    }
  };
  for (const [s, context, what] of steps) {
    runTicksBefore(at(s) - 1);
    if (typeof what === 'function') {
      snooze = what(snooze, at(s));
      continue;
    }
    const reachable =
      what === 'unreachable' ? false : what === 'reconnecting' ? countsAsReachable('reconnecting') : true;
    // While unreachable the host passes its last known (here: a deliberately alarming) inventory.
    const inventory =
      what === 'unreachable'
        ? inv({ ghost: false })
        : what === 'connected-no-inventory'
          ? null
          : what === 'reconnecting'
            ? (lastSeen.get(context) ?? null)
            : inv(what);
    if (typeof what === 'object') lastSeen.set(context, inv(what));
    const out = evaluate(state, { at: at(s), context, reachable, inventory }, r, snooze);
    state = out.state;
    alerts.push(...out.alerts);
    next = out.nextCheckAt;
  }
  runTicksBefore(at(untilS ?? (steps.at(-1)?.[0] ?? 0) + 3600));
  return { alerts, state, nextCheckAt: next };
}
