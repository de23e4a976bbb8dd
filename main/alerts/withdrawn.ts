/**
 * GPUs withdrawn by the device plugin: a Ready node whose allocatable GPUs fall below its capacity.
 * Alerted once per node and level; alerted again only if it withdraws more. Nodes that are NotReady
 * or flapping keep their record (their numbers are not trustworthy then) but raise nothing.
 */

import { dict, hasKey, own } from '../../common/dict.ts';
import type { AlertFacts } from './text.ts';
import { withdrawnText } from './text.ts';
import type { ContextPolicy, InventoryView } from './types.ts';

export function judgeWithdrawn(
  cp: ContextPolicy,
  context: string,
  view: InventoryView,
  flapping: Record<string, number>,
  at: number,
): { withdrawn: Record<string, number>; alerts: AlertFacts[] } {
  const withdrawn = dict<number>();
  const lines: { node: string; allocatable: number; capacity: number; before: number }[] = [];
  for (const [name, f] of Object.entries(view.nodes)) {
    const seen = own(cp.withdrawn, name);
    if (!f.ready || hasKey(flapping, name)) {
      if (seen !== undefined) withdrawn[name] = seen;
      continue;
    }
    if (f.capacity === null || f.allocatable === null || f.allocatable >= f.capacity) continue;
    withdrawn[name] = f.allocatable;
    if (seen === undefined || f.allocatable < seen) {
      lines.push({
        node: name,
        allocatable: f.allocatable,
        capacity: f.capacity,
        before: seen ?? f.capacity,
      });
    }
  }
  if (lines.length === 0) return { withdrawn, alerts: [] };
  const sum = (k: 'before' | 'allocatable') => lines.reduce((s, l) => s + l[k], 0);
  const alert: AlertFacts = {
    at,
    context,
    kind: 'gpus-withdrawn',
    nodes: lines.map((l) => l.node),
    before: sum('before'),
    after: sum('allocatable'),
    ...withdrawnText(context, lines),
  };
  return { withdrawn, alerts: [alert] };
}
