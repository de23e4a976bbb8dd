/**
 * One copy of each repeated string (label values, product names, Ready reasons): JSON.parse makes a
 * fresh string per node, and at 5,000 cached nodes the copies were a third of the cache's heap. The
 * pool is bounded; when full it starts over (a missed share costs memory, never correctness).
 */
const MAX_POOL = 20_000;
const pool = new Map<string, string>();

export function intern(value: string): string {
  const known = pool.get(value);
  if (known !== undefined) return known;
  if (pool.size >= MAX_POOL) pool.clear();
  pool.set(value, value);
  return value;
}
