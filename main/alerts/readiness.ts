/**
 * Ready-drop and recovery with a hold-down. The policy keeps the set of nodes it counts as Ready
 * ("accepted"); nodes leaving it start a pending drop that is alerted only if it lasts the
 * hold-down, and an alerted drop gets exactly one recovery alert when it is made good.
 * Flapping nodes are left out of both sides; they have their own alert.
 */

import type { AlertRules } from '../../common/alert-rules.ts';
import { hasKey, own } from '../../common/dict.ts';
import type { AlertFacts } from './text.ts';
import { downNode, dropText, LEFT_THE_CLUSTER, recoveryText } from './text.ts';
import type { ContextPolicy, InventoryView } from './types.ts';

type Fields = Pick<ContextPolicy, 'accepted' | 'pending' | 'down'>;

export function judgeReadiness(
  cp: ContextPolicy,
  context: string,
  view: InventoryView,
  flapping: Record<string, number>,
  at: number,
  rules: AlertRules,
): Fields & { alerts: AlertFacts[] } {
  const stable = (n: string) => !hasKey(flapping, n);
  const isReady = (n: string) => own(view.nodes, n)?.ready === true;
  const accepted = new Set(cp.accepted);
  const alerts: AlertFacts[] = [];

  for (const [name, facts] of Object.entries(view.nodes)) {
    if (facts.ready && stable(name)) accepted.add(name);
  }
  // A list with omitted nodes (the controller lists NotReady nodes first, then Ready ones as they fit):
  // a node that was left out before and now shows NotReady, while the ready count fell, was a Ready one.
  const last = cp.last;
  if (last && (last.omitted ?? 0) > 0 && view.readyCount < last.readyCount) {
    for (const [name, facts] of Object.entries(view.nodes))
      if (!facts.ready && stable(name) && !hasKey(last.nodes, name)) accepted.add(name);
  }

  let down = cp.down;
  if (down?.nodes.every(stable)) {
    const allBack = down.nodes.every(isReady);
    if (allBack || view.readyCount >= down.baseline) {
      const back = down.nodes.filter(isReady);
      const text = recoveryText(context, back, down.low, view.readyCount);
      alerts.push({
        at,
        context,
        kind: 'recovered',
        nodes: back,
        before: down.low,
        after: view.readyCount,
        ...text,
      });
      down = null;
    }
  }

  // An accepted node missing from a list that omits nodes may be among them: unknown, not lost.
  // Unless fillOmitted found every omitted node Ready (then absent = left the cluster).
  const unseen = (n: string) => (view.omitted ?? 0) > 0 && view.complete !== true && !hasKey(view.nodes, n);
  const lost = [...accepted].filter((n) => stable(n) && !isReady(n) && !unseen(n));
  let pending = cp.pending;
  if (lost.length === 0) pending = null;
  else {
    pending ??= { since: at };
    if (at - pending.since >= rules.holdDownMs) {
      // Counted at alert time, so a drop that spanned an outage still reads "4 → 3", not "3 → 3".
      const before = view.readyCount + lost.length;
      const notReady = lost.filter((n) => hasKey(view.nodes, n));
      const gone = lost.filter((n) => !hasKey(view.nodes, n));
      // Nodes still in the cluster first: the first one is what a click on the notification opens.
      const why = [
        ...notReady.map((node) => {
          const facts = own(view.nodes, node);
          return downNode(node, facts?.why ?? null, facts?.cause ?? null);
        }),
        ...gone.map((node) => ({ node, reason: LEFT_THE_CLUSTER, left: true })),
      ];
      const text = dropText(context, why, before, view.readyCount);
      alerts.push({
        at,
        context,
        kind: 'ready-drop',
        nodes: [...notReady, ...gone],
        before,
        after: view.readyCount,
        ...text,
      });
      for (const n of lost) accepted.delete(n);
      down =
        down === null
          ? { nodes: lost, baseline: before, low: view.readyCount }
          : { nodes: [...down.nodes, ...lost], baseline: down.baseline, low: view.readyCount };
      pending = null;
    }
  }
  return { accepted: [...accepted], pending, down, alerts };
}
