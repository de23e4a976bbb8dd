// OpenAPI v3 structural-schema checks for custom resources: type errors, required fields, pruning.
import type { Cause } from './errors.ts';
import { typeName } from './json.ts';
import type { Json, JsonObject } from './types.ts';
import { isObj } from './types.ts';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function typeOk(type: Json | undefined, v: Json): boolean {
  switch (type) {
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return isObj(v);
    case 'array':
      return Array.isArray(v);
    default:
      return true;
  }
}

/** Validation causes like kube-apiserver's, e.g. status.total_gpus must be of type integer. */
export function validate(
  schema: JsonObject,
  v: Json,
  path: string,
  name: string,
  out: Cause[] = [],
): Cause[] {
  if (v === null && schema.nullable === true) return out;
  if (!typeOk(schema.type, v)) {
    const t = typeName(v) === 'integer' ? 'number' : typeName(v);
    const msg = `Invalid value: "${t}": ${name} in body must be of type ${String(schema.type)}: "${t}"`;
    out.push({ reason: 'FieldValueTypeInvalid', message: msg, field: path });
    return out;
  }
  if (schema.format === 'date-time' && typeof v === 'string' && !DATE_TIME.test(v)) {
    const msg = `Invalid value: "${v}": ${name} in body must be of type date-time: "${v}"`;
    out.push({ reason: 'FieldValueTypeInvalid', message: msg, field: path });
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(v)) {
    out.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${JSON.stringify(v)}`,
      field: path,
    });
  }
  if (isObj(v)) {
    const props = isObj(schema.properties) ? schema.properties : {};
    for (const r of Array.isArray(schema.required) ? schema.required : []) {
      if (v[String(r)] === undefined)
        out.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${path}.${String(r)}` });
    }
    for (const [k, x] of Object.entries(v)) {
      const sub = props[k] ?? (isObj(schema.additionalProperties) ? schema.additionalProperties : undefined);
      if (isObj(sub)) validate(sub, x, path ? `${path}.${k}` : k, k, out);
    }
  }
  if (Array.isArray(v) && isObj(schema.items)) {
    for (const [i, x] of v.entries()) validate(schema.items as JsonObject, x, `${path}[${i}]`, name, out);
  }
  return out;
}

/** Removes fields the schema does not know (in place); returns their paths for the Warning header. */
export function prune(schema: JsonObject, v: Json, path: string, out: string[] = []): string[] {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true && !isObj(schema.properties)) return out;
  if (isObj(v)) {
    const props = isObj(schema.properties) ? schema.properties : undefined;
    const extra = isObj(schema.additionalProperties) ? schema.additionalProperties : undefined;
    for (const k of Object.keys(v)) {
      const sub = props?.[k] ?? extra;
      const p = path ? `${path}.${k}` : k;
      if (isObj(sub)) prune(sub, v[k] as Json, p, out);
      else if (props && schema['x-kubernetes-preserve-unknown-fields'] !== true) {
        delete v[k];
        out.push(p);
      }
    }
  } else if (Array.isArray(v) && isObj(schema.items)) {
    for (const [i, x] of v.entries()) prune(schema.items as JsonObject, x, `${path}[${i}]`, out);
  }
  return out;
}

/** structured-merge-diff's typed-patch error for apply bodies, or undefined if the types fit. */
export function typedPatchError(schema: JsonObject, v: Json, path = ''): string | undefined {
  if (v === null) return undefined;
  const t = schema.type;
  if ((t === 'integer' || t === 'number') && typeof v !== 'number')
    return `${path}: expected numeric (int or float), got ${typeName(v)}`;
  if (t === 'string' && typeof v !== 'string')
    return `${path}: expected string, got &value.valueUnstructured{Value:${JSON.stringify(v)}}`;
  if (t === 'boolean' && typeof v !== 'boolean') return `${path}: expected boolean, got ${typeName(v)}`;
  if (isObj(v)) {
    const props = isObj(schema.properties) ? schema.properties : {};
    for (const [k, x] of Object.entries(v)) {
      const sub = props[k] ?? schema.additionalProperties;
      const e = isObj(sub) ? typedPatchError(sub, x, `${path}.${k}`) : undefined;
      if (e) return e;
    }
  }
  if (Array.isArray(v) && isObj(schema.items)) {
    for (const x of v) {
      const e = typedPatchError(schema.items, x, path);
      if (e) return e;
    }
  }
  return undefined;
}

/** The schema of a top-level object with metadata/apiVersion/kind allowed. */
export function rootSchema(schema: JsonObject | undefined): JsonObject {
  const base = schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const props = isObj(base.properties) ? base.properties : {};
  return {
    ...base,
    properties: {
      ...props,
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  };
}
