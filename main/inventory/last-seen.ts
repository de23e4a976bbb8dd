/**
 * What each node's GPU labels last said. GFD's labels vanish when a node dies, so this memory is how
 * an `<unlabeled>` NotReady node can still show "last seen: RTX 4070 ×1". Maps are treated as
 * immutable values: every function returns its input itself when nothing changed (cheap `===`
 * checks). This module forgets nothing by itself: the caller keeps the map to the nodes it still knows
 * (fleet/context-monitor.ts calls `forgetLabels` on a delete and when a node of the same name comes
 * back with another uid, and `retainLabels` after a relist).
 */
import type { LastSeenLabels } from '../../common/inventory.ts';
import { readGpuLabels } from './gpu-labels.ts';
import type { NodeFacts } from './node-facts.ts';
import { nullableKey, sharePool } from './share.ts';

type LastSeenMap = ReadonlyMap<string, LastSeenLabels>;

/** The labels worth remembering, or null when the node says nothing about its GPUs right now. */
function labelsOf(facts: NodeFacts): LastSeenLabels | null {
  const { product, count, memory } = readGpuLabels(facts.labels);
  if (product === null && count === 0) return null;
  return seen.share(`${nullableKey(product)}${count}/${memory ?? '-'}`, { product, count, memory });
}

/** One frozen copy per distinct product, count and memory (share.ts): a cluster has a few kinds of node. */
const seen = sharePool<LastSeenLabels>();

function same(a: LastSeenLabels | undefined, b: LastSeenLabels): boolean {
  return a !== undefined && a.product === b.product && a.count === b.count && a.memory === b.memory;
}

/** Records the node's current labels; an unlabeled node keeps what it had. O(1), or O(n) on a change. */
export function rememberLabels(prev: LastSeenMap, facts: NodeFacts): LastSeenMap {
  return rememberAllLabels(prev, [facts]);
}

/** The batch form of rememberLabels: copies the map at most once however many nodes changed. */
export function rememberAllLabels(prev: LastSeenMap, nodes: Iterable<NodeFacts>): LastSeenMap {
  let next: Map<string, LastSeenLabels> | null = null;
  for (const facts of nodes) {
    const seen = labelsOf(facts);
    if (seen === null || same((next ?? prev).get(facts.name), seen)) continue;
    next ??= new Map(prev);
    next.set(facts.name, seen);
  }
  return next ?? prev;
}

/** Drops a deleted node. */
export function forgetLabels(prev: LastSeenMap, name: string): LastSeenMap {
  if (!prev.has(name)) return prev;
  const next = new Map(prev);
  next.delete(name);
  return next;
}

/** Keeps only the nodes still known (after a relist swapped the node set in whole). */
export function retainLabels(prev: LastSeenMap, known: ReadonlySet<string>): LastSeenMap {
  let next: Map<string, LastSeenLabels> | null = null;
  for (const name of prev.keys()) {
    if (known.has(name)) continue;
    next ??= new Map(prev);
    next.delete(name);
  }
  return next ?? prev;
}
