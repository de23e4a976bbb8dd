/**
 * One frozen copy of each distinct NodeSlots (share.ts): most GPU nodes of a cluster have the same product
 * and slots, and nodeSlots keeps one per cached node (bench row 3).
 */
import { entryKey, nullableKey, sharePool } from './share.ts';

/** NodeSlots by shape (node-slots.ts imports this file, so not by name). */
interface Slots {
  product: string | null;
  slots: {
    resource: string;
    kind: string;
    profile: string | null;
    capacity: number;
    allocatable: number;
    physical: number | null;
  }[];
}

const pool = sharePool<Slots>((s) => {
  for (const slot of s.slots) Object.freeze(slot);
  Object.freeze(s.slots);
  Object.freeze(s);
});

export function shareSlots<T extends Slots>(s: T): T {
  let key = nullableKey(s.product);
  for (const x of s.slots)
    key += `${entryKey(x.resource)}${entryKey(x.kind)}${nullableKey(x.profile)}${x.capacity}/${x.allocatable}/${x.physical ?? '-'};`;
  return pool.share(key, s) as T;
}
