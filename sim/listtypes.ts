// Which lists are associative (merged by key) for strategic merge patch and server-side apply.
import type { JsonObject, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

const BUILTIN: Record<string, Record<string, string[]>> = {
  '/nodes': {
    'status.conditions': ['type'],
    'status.addresses': ['type'],
    'metadata.ownerReferences': ['uid'],
  },
  '/namespaces': { 'status.conditions': ['type'], 'metadata.ownerReferences': ['uid'] },
  '/configmaps': { 'metadata.ownerReferences': ['uid'] },
  'apiextensions.k8s.io/customresourcedefinitions': {
    'status.conditions': ['type'],
    'spec.versions': ['name'],
  },
};

/** A function from a dotted field path (list items left out) to the list's merge keys, if any. */
export type ListKeyFn = (path: string[]) => string[] | undefined;

function schemaAt(schema: JsonObject | undefined, path: string[]): JsonObject | undefined {
  let cur: JsonObject | undefined = schema;
  for (const p of path) {
    if (!cur) return undefined;
    if (cur.type === 'array' && isObj(cur.items)) cur = cur.items;
    const props: unknown = cur.properties;
    cur = isObj(props) && isObj(props[p]) ? props[p] : undefined;
  }
  return cur;
}

export function listKeysFor(def: ResourceDef): ListKeyFn {
  if (def.builtin) {
    const table = BUILTIN[`${def.group}/${def.resource}`] ?? {};
    return (path) => table[path.join('.')];
  }
  return (path) => {
    const s = schemaAt(def.schema, path);
    if (s?.['x-kubernetes-list-type'] !== 'map') return undefined;
    const keys = s['x-kubernetes-list-map-keys'];
    return Array.isArray(keys) ? keys.map(String) : undefined;
  };
}

export function itemKey(item: unknown, keys: string[]): string | undefined {
  if (!isObj(item)) return undefined;
  const k: JsonObject = {};
  for (const name of keys) {
    const v = item[name];
    if (v === undefined) return undefined;
    k[name] = v;
  }
  return JSON.stringify(k);
}
