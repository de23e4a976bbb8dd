/**
 * Records keyed by names from outside (node names, kubeconfig context names, label keys): `constructor`,
 * `toString` and `__proto__` are valid names there. Reads go through `own` (own properties only, never
 * Object.prototype), and records are made with a null prototype, so assigning `__proto__` stores a key
 * instead of changing the prototype. They stay plain JSON data for logs and settings files.
 */

export type Dict<T> = Record<string, T>;

/** A new record with no prototype, optionally filled from entries. */
export function dict<T>(entries: Iterable<readonly [string, T]> = []): Dict<T> {
  const out = Object.create(null) as Dict<T>;
  for (const [key, value] of entries) out[key] = value;
  return out;
}

/** The value stored under `key` itself, or undefined (never one inherited from Object.prototype). */
export function own<T>(record: Readonly<Dict<T>> | null | undefined, key: string): T | undefined {
  return record != null && Object.hasOwn(record, key) ? record[key] : undefined;
}

export function hasKey(record: Readonly<Dict<unknown>> | null | undefined, key: string): boolean {
  return record != null && Object.hasOwn(record, key);
}

/** A copy of `record` (null prototype) with `key` set to `value`. */
export function withKey<T>(record: Readonly<Dict<T>>, key: string, value: T): Dict<T> {
  const out = dict(Object.entries(record));
  out[key] = value;
  return out;
}

/** A copy of `record` (null prototype) without `key`. */
export function withoutKey<T>(record: Readonly<Dict<T>>, key: string): Dict<T> {
  return dict(Object.entries(record).filter(([k]) => k !== key));
}

/** A copy with a null prototype: for records read from disk or a spread of one. */
export function copyDict<T>(record: Readonly<Dict<T>>): Dict<T> {
  return dict(Object.entries(record));
}
