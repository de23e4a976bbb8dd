/**
 * Exact equality of JSON data, as the delta pushes need it: two values are the same when JSON.stringify
 * would write the same data (key order aside). Unlike main/inventory/json-equal.ts, `null` and an absent
 * key differ here: a delta that treated them alike would not rebuild the snapshot it was made from.
 * A key whose value is `undefined` counts as absent, as it does on the wire.
 */

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let count = 0;
  // Own keys only, so a key named `constructor` or `__proto__` is compared as data.
  for (const key of Object.keys(ao)) {
    const value = ao[key];
    if (value === undefined) continue;
    count++;
    if (!Object.hasOwn(bo, key) || !sameJson(value, bo[key])) return false;
  }
  for (const key of Object.keys(bo)) if (bo[key] !== undefined) count--;
  return count === 0;
}
