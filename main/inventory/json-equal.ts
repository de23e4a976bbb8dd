/**
 * Structural equality of plain JSON values, as the meaningful-change comparison needs it: an absent
 * key, `undefined` and `null` are the same "nothing", so an inventory read back from a cluster or a
 * settings file that lacks an optional extra does not count as a change.
 */

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return a == null && b == null;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // Own keys only: a node or label named `constructor` must not match Object.prototype's.
  for (const key of Object.keys(ao))
    if (!jsonEqual(ao[key], Object.hasOwn(bo, key) ? bo[key] : undefined)) return false;
  for (const key of Object.keys(bo)) if (!Object.hasOwn(ao, key) && bo[key] != null) return false;
  return true;
}
