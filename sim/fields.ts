// Field sets for managedFields: paths like f:status/k:{"type":"Ready"}/f:status, their fieldsV1 trees and values.
import type { ListKeyFn } from './listtypes.ts';
import { itemKey } from './listtypes.ts';
import type { Json, JsonObject } from './types.ts';
import { isObj } from './types.ts';

export const SEP = '\u0001';
export type FieldSet = Set<string>;

const UNTRACKED_META = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
  'generateName',
]);

/** The fields of an object as a set of paths; 'update' mode marks maps/lists below the top level with '.'. */
export function fieldSetOf(o: JsonObject, keys: ListKeyFn, mode: 'apply' | 'update'): FieldSet {
  const out: FieldSet = new Set();
  for (const [k, v] of Object.entries(o)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    if (k === 'metadata' && isObj(v)) {
      for (const [mk, mv] of Object.entries(v)) {
        if (!UNTRACKED_META.has(mk)) walk(mv, [mk], [`f:metadata`, `f:${mk}`], keys, mode, out);
      }
      continue;
    }
    walk(v, [k], [`f:${k}`], keys, mode, out);
  }
  return out;
}

function walk(v: Json, path: string[], elems: string[], keys: ListKeyFn, mode: string, out: FieldSet): void {
  const deep = elems.length >= 2 && mode === 'update';
  if (isObj(v)) {
    const entries = Object.entries(v);
    if (entries.length === 0) {
      out.add(elems.join(SEP));
      return;
    }
    if (deep) out.add([...elems, '.'].join(SEP));
    for (const [k, x] of entries) walk(x, [...path, k], [...elems, `f:${k}`], keys, mode, out);
    return;
  }
  const mk = Array.isArray(v) ? keys(path) : undefined;
  if (Array.isArray(v) && mk) {
    if (deep) out.add([...elems, '.'].join(SEP));
    for (const item of v) {
      const id = itemKey(item, mk);
      if (id === undefined || !isObj(item)) continue;
      const ie = [...elems, `k:${id}`];
      out.add([...ie, '.'].join(SEP));
      for (const [k, x] of Object.entries(item)) walk(x, [...path, k], [...ie, `f:${k}`], keys, mode, out);
    }
    return;
  }
  out.add(elems.join(SEP));
}

export function toTree(set: FieldSet): JsonObject {
  const root: JsonObject = {};
  for (const p of [...set].sort()) {
    let cur = root;
    for (const e of p.split(SEP)) {
      if (!isObj(cur[e])) cur[e] = {};
      cur = cur[e] as JsonObject;
    }
  }
  return root;
}

export function fromTree(tree: Json | undefined, prefix: string[] = [], out: FieldSet = new Set()): FieldSet {
  if (!isObj(tree)) return out;
  const entries = Object.entries(tree);
  if (entries.length === 0 && prefix.length > 0) out.add(prefix.join(SEP));
  for (const [k, v] of entries) {
    if (k === '.') out.add([...prefix, '.'].join(SEP));
    else fromTree(v, [...prefix, k], out);
  }
  return out;
}

function step(cur: Json | undefined, e: string): Json | undefined {
  if (e.startsWith('f:')) return isObj(cur) ? cur[e.slice(2)] : undefined;
  if (e.startsWith('k:') && Array.isArray(cur)) {
    const key = JSON.parse(e.slice(2)) as JsonObject;
    return cur.find((item) => isObj(item) && Object.entries(key).every(([k, v]) => item[k] === v));
  }
  return cur;
}

export function valueAt(o: Json | undefined, path: string): Json | undefined {
  let cur = o;
  for (const e of path.split(SEP)) {
    if (e === '.') return cur;
    cur = step(cur, e);
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Removes the field (or list item for a k:…/. path) from o, in place. */
export function removeAt(o: Json, path: string): void {
  const elems = path.split(SEP);
  if (elems[elems.length - 1] === '.') elems.pop();
  const last = elems.pop();
  if (last === undefined) return;
  let cur: Json | undefined = o;
  for (const e of elems) cur = step(cur, e);
  if (last.startsWith('f:') && isObj(cur)) delete cur[last.slice(2)];
  else if (last.startsWith('k:') && Array.isArray(cur)) {
    const item = step(cur, last);
    const i = cur.indexOf(item as Json);
    if (i >= 0) cur.splice(i, 1);
  }
}

/** structured-merge-diff's path notation: .status.conditions[type="Ready"].status */
export function displayPath(path: string): string {
  let s = '';
  for (const e of path.split(SEP)) {
    if (e === '.') continue;
    if (e.startsWith('f:')) s += `.${e.slice(2)}`;
    else if (e.startsWith('k:')) {
      const key = JSON.parse(e.slice(2)) as JsonObject;
      s += `[${Object.entries(key)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',')}]`;
    }
  }
  return s;
}
