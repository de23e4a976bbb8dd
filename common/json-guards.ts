/**
 * The small guards for reading parsed JSON (or YAML) of unknown shape, in one place: is it a plain object
 * (not null, not an array), the object or an empty one, a string or null. They only look; they copy and
 * validate nothing, so the caller still checks every value it uses.
 */

/** A parsed JSON object: string keys, values of unknown shape. */
export type JsonRecord = Record<string, unknown>;

/** True for an object that is neither null nor an array (what JSON calls an object). */
export function isObj(v: unknown): v is JsonRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value when it is a JSON object, else a fresh empty one (so a chain of reads never throws). */
export function asRecord(v: unknown): JsonRecord {
  return isObj(v) ? v : {};
}

/** The value when it is a string (the empty one too), else null. */
export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}
