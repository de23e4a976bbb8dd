/**
 * One copy of each repeated string (label values, product names, Ready reasons): JSON.parse makes a
 * fresh string per node, and at 5,000 cached nodes the copies were a third of the cache's heap. Only short
 * strings are shared (long ones are rarely repeated, and a hostile server could send a million distinct
 * 1 MB values), and the pool is bounded by count; when full it starts over (a missed share costs memory,
 * never correctness). So the pool holds at most MAX_POOL × MAX_INTERN_LENGTH characters.
 */
export const MAX_POOL = 20_000;
/** Label values are at most 63 characters in Kubernetes; longer strings are returned as they are. */
export const MAX_INTERN_LENGTH = 64;
const pool = new Map<string, string>();
let chars = 0;

export function intern(value: string): string {
  if (value.length > MAX_INTERN_LENGTH) return value;
  const known = pool.get(value);
  if (known !== undefined) return known;
  if (pool.size >= MAX_POOL) {
    pool.clear();
    chars = 0;
  }
  pool.set(value, value);
  chars += value.length;
  return value;
}

/** The characters the pool holds (what bounds its memory), for tests and diagnostics. */
export function internedChars(): number {
  return chars;
}
