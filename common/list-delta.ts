/**
 * The change between two lists of keyed items (node entries by name, contexts by name): changed items,
 * added items with their index in the next list, removed keys, and the whole key order only when the
 * kept items changed their relative order. Keys come from the cluster or a kubeconfig, so they live in
 * Maps and Sets only, never as property names. Pure; `applyList` throws `DeltaMismatch` for a delta that
 * was not made from the list it is applied to, and the caller then reads a full snapshot.
 */

export interface ListDelta<Item, Change> {
  /** What changed in items present in both lists, in next order (a whole item, or a change of one). */
  changed?: Change[];
  /** Items only in the next list, with their index there; ascending. */
  added?: { at: number; item: Item }[];
  /** Keys only in the previous list. */
  removed?: string[];
  /** Every key of the next list in its order: sent only when kept items moved relative to each other. */
  order?: string[];
}

export class DeltaMismatch extends Error {
  constructor(what: string) {
    super(`The delta does not fit the snapshot: ${what}.`);
    this.name = 'DeltaMismatch';
  }
}

export interface ListOps<Item, Change> {
  key: (item: Item) => string;
  /** The key a change applies to. */
  changeKey: (change: Change) => string;
  /** The change from `prev` to `next` (same key), or null when they are the same. */
  diff: (prev: Item, next: Item) => Change | null;
  apply: (prev: Item, change: Change) => Item;
}

/** The delta from `prev` to `next`, `{}` when nothing changed, or null when keys repeat in either list. */
export function diffList<Item, Change>(
  prev: readonly Item[],
  next: readonly Item[],
  ops: ListOps<Item, Change>,
): ListDelta<Item, Change> | null {
  const prevIndex = new Map<string, number>();
  for (let i = 0; i < prev.length; i++) {
    const k = ops.key(prev[i] as Item);
    if (prevIndex.has(k)) return null;
    prevIndex.set(k, i);
  }
  const nextKeys = new Set<string>();
  const changed: Change[] = [];
  const added: { at: number; item: Item }[] = [];
  let lastKept = -1;
  let moved = false;
  for (let i = 0; i < next.length; i++) {
    const item = next[i] as Item;
    const k = ops.key(item);
    if (nextKeys.has(k)) return null;
    nextKeys.add(k);
    const j = prevIndex.get(k);
    if (j === undefined) {
      added.push({ at: i, item });
      continue;
    }
    // Kept items keep their relative order exactly when their previous indices rise along `next`.
    if (j < lastKept) moved = true;
    lastKept = j;
    const change = ops.diff(prev[j] as Item, item);
    if (change !== null) changed.push(change);
  }
  const removed: string[] = [];
  for (const k of prevIndex.keys()) if (!nextKeys.has(k)) removed.push(k);
  const delta: ListDelta<Item, Change> = {};
  if (changed.length > 0) delta.changed = changed;
  if (added.length > 0) delta.added = added;
  if (removed.length > 0) delta.removed = removed;
  if (moved) delta.order = next.map(ops.key);
  return delta;
}

export function isEmptyList(delta: ListDelta<unknown, unknown>): boolean {
  return !delta.changed?.length && !delta.added?.length && !delta.removed?.length && !delta.order;
}

/**
 * The next list, sharing every item the delta does not change. Without `order`: the kept items in their
 * previous order (changes applied), with each added item put at its index. That is the next list: its
 * kept items are in their previous relative order (else `diffList` sends `order`), and the added items
 * sit exactly at the indices recorded from it, so filling the other indices with the kept items in order
 * rebuilds it. With `order`, the items are taken by key in that order.
 */
export function applyList<Item, Change>(
  prev: readonly Item[],
  delta: ListDelta<Item, Change>,
  ops: ListOps<Item, Change>,
): Item[] {
  if (isEmptyList(delta)) return prev as Item[];
  const known = new Set<string>();
  for (const item of prev) known.add(ops.key(item));
  const changes = new Map<string, Change>();
  for (const change of delta.changed ?? []) {
    const k = ops.changeKey(change);
    if (!known.has(k) || changes.has(k)) throw new DeltaMismatch('a changed item is not in the list');
    changes.set(k, change);
  }
  const removed = new Set<string>();
  for (const k of delta.removed ?? []) {
    if (!known.has(k) || changes.has(k)) throw new DeltaMismatch('a removed item is not in the list');
    removed.add(k);
  }
  const added = delta.added ?? [];
  const addedKeys = new Set<string>();
  for (const { item } of added) {
    const k = ops.key(item);
    if (known.has(k) || addedKeys.has(k)) throw new DeltaMismatch('an added item is already in the list');
    addedKeys.add(k);
  }
  const kept: Item[] = [];
  for (const item of prev) {
    const k = ops.key(item);
    if (removed.has(k)) continue;
    const change = changes.get(k);
    kept.push(change === undefined ? item : ops.apply(item, change));
  }
  return delta.order ? byOrder(kept, added, delta.order, ops.key) : interleave(kept, added);
}

function interleave<Item>(kept: readonly Item[], added: readonly { at: number; item: Item }[]): Item[] {
  const out: Item[] = [];
  let k = 0;
  for (const { at, item } of added) {
    if (!Number.isInteger(at) || at < out.length) throw new DeltaMismatch('added indices are not ascending');
    while (out.length < at) {
      if (k >= kept.length) throw new DeltaMismatch('an added index is past the end');
      out.push(kept[k++] as Item);
    }
    out.push(item);
  }
  while (k < kept.length) out.push(kept[k++] as Item);
  return out;
}

function byOrder<Item>(
  kept: readonly Item[],
  added: readonly { at: number; item: Item }[],
  order: readonly string[],
  key: (item: Item) => string,
): Item[] {
  const byKey = new Map<string, Item>();
  for (const item of kept) byKey.set(key(item), item);
  for (const { item } of added) byKey.set(key(item), item);
  if (order.length !== byKey.size) throw new DeltaMismatch('the order does not name every item');
  const out: Item[] = [];
  for (const k of order) {
    const item = byKey.get(k);
    if (item === undefined) throw new DeltaMismatch('the order names an unknown item');
    byKey.delete(k);
    out.push(item);
  }
  return out;
}
