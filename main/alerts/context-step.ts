/**
 * One context's step: what an observation (or a due tick) does to that context's policy state,
 * as alert facts still to be worded and marked suppressed by the caller.
 */

import type { AlertRules } from '../../common/alert-rules.ts';
import { dict } from '../../common/dict.ts';
import { nextUnflapAt, trackFlaps } from './flap.ts';
import { noFreeNextCheck } from './no-free.ts';
import { fillOmitted } from './omitted.ts';
import { judgeReadiness } from './readiness.ts';
import { type AlertFacts, flapText, reachableText, unreachableText } from './text.ts';
import type { ContextPolicy, InventoryView } from './types.ts';
import { judgeWithdrawn } from './withdrawn.ts';

export function unreachableStep(cp: ContextPolicy, context: string, at: number, rules: AlertRules) {
  const since = cp.reachable ? at : (cp.unreachableSince ?? at);
  const alerts: AlertFacts[] = [];
  let alerted = cp.unreachableAlerted;
  if (!alerted && at - since >= rules.unreachableAfterMs) {
    const last = cp.last;
    const total = last === null ? null : (last.total ?? Object.keys(last.nodes).length);
    const text = unreachableText(context, at - since, last?.readyCount ?? null, total);
    alerts.push({
      at,
      context,
      kind: 'unreachable',
      nodes: [],
      before: last?.readyCount ?? null,
      after: null,
      ...text,
    });
    alerted = true;
  }
  const next: ContextPolicy = {
    ...cp,
    reachable: false,
    unreachableSince: since,
    unreachableAlerted: alerted,
    pending: null,
  };
  return { cp: next, alerts };
}

export function reachableStep(
  cp: ContextPolicy,
  context: string,
  at: number,
  listed: InventoryView | null,
  rules: AlertRules,
) {
  const view = listed === null ? null : fillOmitted(cp.last, listed);
  const alerts: AlertFacts[] = [];
  if (!cp.reachable && cp.unreachableAlerted) {
    const text = reachableText(context, at - (cp.unreachableSince ?? at), view?.readyCount ?? null);
    const before = cp.last?.readyCount ?? null;
    alerts.push({
      at,
      context,
      kind: 'reachable',
      nodes: [],
      before,
      after: view?.readyCount ?? null,
      ...text,
    });
  }
  let next: ContextPolicy = { ...cp, reachable: true, unreachableSince: null, unreachableAlerted: false };
  if (view === null) return { cp: next, alerts };

  const flaps = trackFlaps(next, view, at, rules);
  if (flaps.newlyFlapping.length > 0) {
    const nodes = flaps.newlyFlapping;
    const text = flapText(context, nodes, rules.flapThreshold, rules.flapWindowMs);
    const before = next.last?.readyCount ?? null;
    alerts.push({ at, context, kind: 'flapping', nodes, before, after: view.readyCount, ...text });
  }
  const readiness = judgeReadiness(next, context, view, flaps.flapping, at, rules);
  alerts.push(...readiness.alerts);
  const withdrawn = rules.withdrawnGpus
    ? judgeWithdrawn(next, context, view, flaps.flapping, at)
    : { withdrawn: dict<number>(), alerts: [] };
  alerts.push(...withdrawn.alerts);
  next = {
    ...next,
    last: view,
    changes: flaps.changes,
    flapping: flaps.flapping,
    accepted: readiness.accepted,
    pending: readiness.pending,
    down: readiness.down,
    withdrawn: withdrawn.withdrawn,
  };
  return { cp: next, alerts };
}

export function contextNextCheck(cp: ContextPolicy, rules: AlertRules): number | null {
  const times: number[] = [];
  if (cp.pending !== null) times.push(cp.pending.since + rules.holdDownMs);
  if (!cp.reachable && !cp.unreachableAlerted && cp.unreachableSince !== null) {
    times.push(cp.unreachableSince + rules.unreachableAfterMs);
  }
  // Flapping is judged on what a reachable context shows: while unreachable nothing changes and the
  // next reachable pass ends it. Asking for a check then would ask again at once, for ever (a host
  // re-arming a 0 ms timer in a loop).
  const unflap = cp.reachable ? nextUnflapAt(cp, rules) : null;
  if (unflap !== null) times.push(unflap);
  const free = noFreeNextCheck(cp.noFree, rules);
  if (free !== null) times.push(free);
  return times.length === 0 ? null : Math.min(...times);
}
