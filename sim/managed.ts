// managedFields entries: parsing, ordering, and ownership tracking for non-apply writes.
import type { FieldSet } from './fields.ts';
import { fieldSetOf, fromTree, SEP, toTree, valueAt } from './fields.ts';
import { deepEqual, nowIso } from './json.ts';
import type { ListKeyFn } from './listtypes.ts';
import type { Json, JsonObject, KObj, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

export interface Entry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  subresource: string;
  set: FieldSet;
}

export function readEntries(o: KObj | undefined): Entry[] {
  const mf = o?.metadata.managedFields;
  if (!Array.isArray(mf)) return [];
  return mf.filter(isObj).map((e) => ({
    manager: String(e.manager ?? ''),
    operation: e.operation === 'Apply' ? 'Apply' : 'Update',
    apiVersion: String(e.apiVersion ?? ''),
    time: String(e.time ?? ''),
    subresource: String(e.subresource ?? ''),
    set: fromTree(e.fieldsV1),
  }));
}

function encode(e: Entry, builtin: boolean): JsonObject {
  const fields = toTree(e.set);
  const out: JsonObject = builtin
    ? {
        manager: e.manager,
        operation: e.operation,
        apiVersion: e.apiVersion,
        time: e.time,
        fieldsType: 'FieldsV1',
        fieldsV1: fields,
      }
    : {
        apiVersion: e.apiVersion,
        fieldsType: 'FieldsV1',
        fieldsV1: fields,
        manager: e.manager,
        operation: e.operation,
        time: e.time,
      };
  if (e.subresource) out.subresource = e.subresource;
  return out;
}

/** Writes entries (sorted like kube-apiserver: Apply first, then by time, manager, subresource). */
export function writeEntries(o: KObj, entries: Entry[], builtin: boolean): void {
  const live = entries.filter((e) => e.set.size > 0);
  if (live.length === 0) {
    delete o.metadata.managedFields;
    return;
  }
  live.sort(
    (a, b) =>
      a.operation.localeCompare(b.operation) ||
      a.time.localeCompare(b.time) ||
      a.manager.localeCompare(b.manager) ||
      a.subresource.localeCompare(b.subresource),
  );
  o.metadata.managedFields = live.map((e) => encode(e, builtin));
}

/** The part of an object a write to (sub)resource may change: status only, or all but status. */
export function scoped(def: ResourceDef, o: KObj, subresource: string): JsonObject {
  if (subresource === 'status') return { metadata: {}, status: (o.status ?? {}) as Json };
  if (def.hasStatus || def.builtin) {
    const { status: _s, ...rest } = o;
    return rest;
  }
  return o;
}

export function managerFromUserAgent(ua: string | undefined): string {
  return (ua ?? '').split('/')[0]?.slice(0, 128) || 'unknown';
}

/** Records the fields a non-apply write changed as owned by `manager`; mutates `next`. */
export function trackUpdate(
  def: ResourceDef,
  prev: KObj | undefined,
  next: KObj,
  manager: string,
  subresource: string,
  keys: ListKeyFn,
): void {
  const entries = readEntries(prev);
  if (prev && entries.length === 0) {
    delete next.metadata.managedFields;
    return;
  }
  const nextSet = fieldSetOf(scoped(def, next, subresource), keys, 'update');
  const changed: FieldSet = new Set();
  for (const p of nextSet) {
    const before = prev ? valueAt(prev, p) : undefined;
    if (p.endsWith(`${SEP}.`) ? before === undefined : !deepEqual(before, valueAt(next, p))) changed.add(p);
  }
  for (const e of entries) {
    for (const p of e.set) if (changed.has(p) || valueAt(next, p) === undefined) e.set.delete(p);
  }
  let me = entries.find(
    (e) => e.manager === manager && e.operation === 'Update' && e.subresource === subresource,
  );
  if (!me && changed.size > 0) {
    me = {
      manager,
      operation: 'Update',
      apiVersion: String(next.apiVersion),
      time: '',
      subresource,
      set: new Set(),
    };
    entries.push(me);
  }
  if (me && changed.size > 0) {
    for (const p of changed) me.set.add(p);
    me.time = nowIso();
  }
  writeEntries(next, entries, def.builtin);
}
