/**
 * One frozen copy of each repeated small value (a node's label, capacity and allocatable maps, its GPU
 * resource list, its free slots): most nodes of a cluster are alike, and at 5,000 cached nodes the
 * per-node copies were most of the engine's heap (bench row 3). A value is described by a key its
 * caller builds from every field (keyOf / entryKey below: injective, lengths before text); equal keys
 * get the first value seen. Every value through share() is frozen, pooled or not, so a writer fails
 * loudly instead of changing another node's facts.
 *
 * Bounded like intern.ts: only keys up to MAX_SHARED_KEY characters are pooled (a longer value is
 * rarely repeated, and a hostile server could send many distinct ones), each pool holds at most
 * MAX_SHARED values and starts over when full (a missed share costs memory, never correctness).
 */
export const MAX_SHARED = 4096;
export const MAX_SHARED_KEY = 1024;

export interface SharePool<T extends object> {
  /** The pooled value equal to `value` (described by `key`), or `value` itself, frozen. */
  share(key: string, value: T): Readonly<T>;
  /** Values pooled now (for tests and diagnostics). */
  readonly size: number;
}

/** A pool for one kind of value; `freeze` freezes the value's own parts (deep where it has any). */
export function sharePool<T extends object>(freeze: (value: T) => void = Object.freeze): SharePool<T> {
  const pool = new Map<string, T>();
  return {
    share(key, value) {
      if (key.length > MAX_SHARED_KEY) {
        freeze(value);
        return value;
      }
      const known = pool.get(key);
      if (known !== undefined) return known;
      if (pool.size >= MAX_SHARED) pool.clear();
      freeze(value);
      pool.set(key, value);
      return value;
    },
    get size() {
      return pool.size;
    },
  };
}

/** One field of a key: its length first, so no two different field lists make the same key. */
export function entryKey(text: string): string {
  return `${text.length}:${text}`;
}

/** A field that may be null: '-' cannot begin an entryKey, so null and every text differ. */
export function nullableKey(text: string | null): string {
  return text === null ? '-' : entryKey(text);
}

/** The key of a string map: every key and value, in insertion order (maps are built in source order). */
export function keyOf(record: Readonly<Record<string, string>>): string {
  let key = '';
  for (const k in record) key += entryKey(k) + entryKey(record[k] ?? '');
  return key;
}
