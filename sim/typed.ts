// Decoding a built-in kind's body the way kube-apiserver's JSON decoder does: Go type errors, MicroTime
// parsing, unknown fields dropped with a warning (or refused under fieldValidation=Strict), and the fields
// put in Go struct order. Errors are the decoder's text; the caller wraps them (400 on POST/PUT, 422 on PATCH).
import { apiError, badRequest } from './errors.ts';
import { parseMicroTime } from './microtime.ts';
import type { Json, JsonObject, KObj, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

export type FieldType = 'string' | 'int32' | 'int64' | 'bool' | 'microtime';

/** One Go struct: its name (for error texts) and its JSON fields in declaration order. */
export interface GoStruct {
  name: string;
  fields: ReadonlyArray<readonly [string, FieldType]>;
}

export interface Decoded {
  error?: string;
  warnings: string[];
}

const GO_TYPE: Record<FieldType, string> = {
  string: 'string',
  int32: 'int32',
  int64: 'int64',
  bool: 'bool',
  microtime: 'string',
};

function jsonKind(v: Json): string {
  if (Array.isArray(v)) return 'array';
  if (isObj(v)) return 'object';
  return typeof v;
}

/** The Go decoder's complaint about one value, or undefined when it fits the field. */
function fieldError(st: GoStruct, path: string, key: string, type: FieldType, v: Json): string | undefined {
  if (v === null) return undefined;
  const where = `Go struct field ${st.name}.${path}.${key} of type ${GO_TYPE[type]}`;
  if (type === 'microtime') {
    if (typeof v !== 'string') return `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`;
    const t = parseMicroTime(v);
    return 'error' in t ? t.error : undefined;
  }
  if (type === 'string' && typeof v !== 'string')
    return `json: cannot unmarshal ${jsonKind(v)} into ${where}`;
  if (type === 'bool' && typeof v !== 'boolean') return `json: cannot unmarshal ${jsonKind(v)} into ${where}`;
  if (type === 'int32' || type === 'int64') {
    if (typeof v !== 'number') return `json: cannot unmarshal ${jsonKind(v)} into ${where}`;
    const max = type === 'int32' ? 2 ** 31 : 2 ** 63;
    if (!Number.isInteger(v) || v >= max || v < -max)
      return `json: cannot unmarshal number ${String(v)} into ${where}`;
  }
  return undefined;
}

/**
 * Decodes `o[path]` as the struct `st` in place: MicroTime values normalised to UTC, keys in struct order,
 * unknown keys dropped (warned about, or the strict-decoding error when `strict`).
 */
export function decodeStruct(o: JsonObject, path: string, st: GoStruct, strict: boolean): Decoded {
  const v = o[path];
  const warnings: string[] = [];
  if (v === undefined || v === null) return { warnings };
  if (!isObj(v))
    return {
      error: `json: cannot unmarshal ${jsonKind(v)} into Go struct field .${path} of type ${st.name}`,
      warnings,
    };
  const out: JsonObject = {};
  for (const [key, type] of st.fields) {
    const fv = v[key];
    if (fv === undefined) continue;
    const err = fieldError(st, path, key, type, fv);
    if (err) return { error: err, warnings };
    if (fv === null) continue;
    if (type === 'microtime' && typeof fv === 'string') {
      const t = parseMicroTime(fv);
      out[key] = 'ok' in t ? t.ok : fv;
    } else out[key] = fv;
  }
  const unknown = Object.keys(v).filter((k) => !st.fields.some(([f]) => f === k));
  if (unknown.length > 0 && strict) {
    const list = unknown.map((k) => `unknown field "${path}.${k}"`).join(', ');
    return { error: `strict decoding error: ${list}`, warnings };
  }
  for (const k of unknown) warnings.push(`299 - "unknown field \\"${path}.${k}\\""`);
  o[path] = out;
  return { warnings };
}

/** The 400 a POST/PUT body that does not decode gets. */
export function undecodable(def: ResourceDef, error: string): ReturnType<typeof badRequest> {
  return badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${error}`);
}

/** Keys along the paths a patch touched sorted (Go re-encodes those maps), the rest as it was. */
function sortAlong(value: Json, patch: Json | undefined): Json {
  if (!isObj(value) || !isObj(patch)) return value;
  const out: JsonObject = {};
  for (const k of Object.keys(value).sort()) {
    const pv = patch[k];
    out[k] = pv === undefined ? (value[k] as Json) : sortAlong(value[k] as Json, pv);
  }
  return out;
}

/**
 * The 422 a PATCH gets when the patched object does not decode (transcript 11, step 8): the message embeds
 * the whole patched object, with no kind or name.
 */
export function patchUndecodable(
  patched: Json,
  patch: Json | undefined,
  error: string,
): ReturnType<typeof apiError> {
  const value = JSON.stringify(JSON.stringify(sortAlong(patched, patch)));
  const message = `Invalid value: ${value}: ${error}`;
  return apiError(422, ` "" is invalid: patch: ${message}`, 'Invalid', {
    causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }],
  });
}

/** Top-level keys a typed object may carry besides its own. */
export function unknownTopLevel(o: KObj, own: readonly string[]): string[] {
  const known = ['kind', 'apiVersion', 'metadata', ...own];
  return Object.keys(o).filter((k) => !known.includes(k));
}
