/**
 * Filling in the nodes a list leaves out. The in-cluster controller at scale lists only NotReady nodes
 * (`nodes_omitted` counts the rest); when every NotReady node is listed (listed NotReady = total − ready),
 * every omitted node is Ready. Then a node known from before and no longer listed is presumed Ready
 * (kept in the view as Ready, so recoveries are reported), unless the GPU node total fell by at least
 * as many as the NotReady nodes that left the list: those left the cluster (absent from the view).
 * A recovery and a deletion landing in the same write cannot be told apart; they are read as deletions.
 * When not every NotReady node is listed, nodes known from before keep their last facts.
 */
import { dict, hasKey } from '../../common/dict.ts';
import type { InventoryView, NodeFacts } from './types.ts';

const PRESUMED_READY: NodeFacts = Object.freeze({
  ready: true,
  why: null,
  cause: null,
  capacity: null,
  allocatable: null,
});

export function fillOmitted(last: InventoryView | null, view: InventoryView): InventoryView {
  if ((view.omitted ?? 0) === 0 || last === null || view.total === undefined) return view;
  const listedNotReady = Object.values(view.nodes).filter((f) => !f.ready).length;
  const complete = listedNotReady === view.total - view.readyCount;
  const nodes = dict<NodeFacts>();
  Object.assign(nodes, view.nodes);
  const vanished = Object.keys(last.nodes).filter((n) => !hasKey(view.nodes, n));
  const wasNotReady = vanished.filter((n) => last.nodes[n]?.ready === false);
  const left = Math.max(0, (last.total ?? view.total) - view.total);
  const deleted =
    complete && left > 0 && left >= wasNotReady.length ? new Set(wasNotReady) : new Set<string>();
  for (const n of vanished) {
    if (deleted.has(n)) continue;
    const before = last.nodes[n] as NodeFacts;
    nodes[n] = complete ? (before.ready ? before : PRESUMED_READY) : before;
  }
  return { ...view, nodes, ...(complete ? { complete: true } : {}) };
}
