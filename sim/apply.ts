// Server-side apply: merge an applied configuration, detect field-manager conflicts, drop abandoned fields.
import { ApiError, statusBody } from './errors.ts';
import type { FieldSet } from './fields.ts';
import { displayPath, fieldSetOf, removeAt, SEP, valueAt } from './fields.ts';
import { deepEqual, nowIso } from './json.ts';
import type { ListKeyFn } from './listtypes.ts';
import { itemKey } from './listtypes.ts';
import type { Entry } from './managed.ts';
import { readEntries, scoped, writeEntries } from './managed.ts';
import type { Json, JsonObject, KObj, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

function merge(live: Json | undefined, applied: Json, keys: ListKeyFn, path: string[]): Json {
  if (isObj(applied)) {
    const out: JsonObject = isObj(live) ? { ...live } : {};
    for (const [k, v] of Object.entries(applied)) out[k] = merge(out[k], v, keys, [...path, k]);
    return out;
  }
  const mk = Array.isArray(applied) ? keys(path) : undefined;
  if (Array.isArray(applied) && mk) {
    const out: Json[] = Array.isArray(live) ? [...live] : [];
    for (const item of applied) {
      const id = itemKey(item, mk);
      const i = id === undefined ? -1 : out.findIndex((x) => itemKey(x, mk) === id);
      if (i >= 0) out[i] = merge(out[i], item, keys, path);
      else out.push(structuredClone(item));
    }
    return out;
  }
  return structuredClone(applied);
}

function printManager(e: Entry): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s += ` using ${e.apiVersion}${e.time ? ` at ${e.time}` : ''}`;
  return s;
}

function conflictError(conflicts: { e: Entry; path: string }[]): ApiError {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.e)}`,
    field: displayPath(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    const c = causes[0] as { message: string; field: string };
    message = `Apply failed with 1 conflict: ${c.message}: ${c.field}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const m = printManager(c.e);
      byManager.set(m, [...(byManager.get(m) ?? []), displayPath(c.path)]);
    }
    const parts = [...byManager].map(([m, paths]) =>
      paths.length === 1
        ? `conflicts with ${m}: ${paths[0]}`
        : `conflicts with ${m}:${paths.map((p) => `\n- ${p}`).join('')}`,
    );
    message = `Apply failed with ${conflicts.length} conflicts: ${parts.sort().join('\n')}`;
  }
  return new ApiError(409, statusBody(409, message, 'Conflict', { causes }));
}

export interface ApplyResult {
  obj: KObj;
  changed: boolean;
}

/** Applies `applied` (already validated) onto `live` (or a fresh base object when creating). */
export function serverSideApply(
  def: ResourceDef,
  live: KObj,
  applied: KObj,
  manager: string,
  subresource: string,
  force: boolean,
  keys: ListKeyFn,
  creating = false,
): ApplyResult {
  const part = scoped(def, applied, subresource) as KObj;
  const config: JsonObject = { ...part };
  delete config.apiVersion;
  delete config.kind;
  const meta: JsonObject = {};
  for (const k of ['labels', 'annotations', 'finalizers', 'ownerReferences']) {
    if (isObj(applied.metadata) && applied.metadata[k] !== undefined && subresource !== 'status') {
      meta[k] = applied.metadata[k] as Json;
    }
  }
  config.metadata = meta;
  const newSet = fieldSetOf(config, keys, 'apply');
  const entries = readEntries(live);
  // An existing object without managedFields (they were dropped as too large, 13 steps 18-20): its
  // fields go to the synthetic manager "before-first-apply", so the first apply conflicts with them.
  if (!creating && entries.length === 0) {
    const { apiVersion: _a, kind: _k, ...rest } = scoped(def, live, subresource) as KObj;
    const set = fieldSetOf(rest, keys, 'update');
    if (set.size > 0)
      entries.push({
        manager: 'before-first-apply',
        operation: 'Update',
        apiVersion: String(live.apiVersion),
        time: '',
        subresource,
        set,
      });
  }
  const isMe = (e: Entry) =>
    e.manager === manager && e.operation === 'Apply' && e.subresource === subresource;
  const conflicts: { e: Entry; path: string }[] = [];
  for (const p of [...newSet].sort()) {
    if (p.endsWith(`${SEP}.`)) continue;
    const want = valueAt(config, p);
    if (isObj(want) && Object.keys(want).length === 0) continue;
    if (deepEqual(valueAt(live, p), want)) continue;
    for (const e of entries) if (!isMe(e) && e.set.has(p)) conflicts.push({ e, path: p });
  }
  if (conflicts.length > 0 && !force) throw conflictError(conflicts);
  for (const c of conflicts) c.e.set.delete(c.path);

  const next = merge(structuredClone(live), config, keys, []) as KObj;
  let me = entries.find(isMe);
  const old: FieldSet = me ? me.set : new Set();
  const prefixOf = (p: string) => (p.endsWith(`${SEP}.`) ? p.slice(0, -1) : `${p}${SEP}`);
  const ownedByOthers = (p: string) =>
    entries.some((e) => !isMe(e) && [...e.set].some((q) => q === p || q.startsWith(prefixOf(p))));
  const dropped = [...old].filter((p) => !newSet.has(p)).sort((a, b) => b.length - a.length);
  for (const p of dropped) if (!ownedByOthers(p)) removeAt(next, p);

  const before = me ? { set: [...me.set].sort().join('|'), time: me.time } : undefined;
  if (!me) {
    me = {
      manager,
      operation: 'Apply',
      apiVersion: String(applied.apiVersion),
      time: '',
      subresource,
      set: newSet,
    };
    entries.push(me);
  }
  me.set = newSet;
  me.apiVersion = String(applied.apiVersion);
  const sameSets = before !== undefined && before.set === [...newSet].sort().join('|');
  const probe = structuredClone(next);
  writeEntries(probe, entries, def.builtin);
  const changedObj =
    !deepEqual(
      { ...probe, metadata: { ...probe.metadata, managedFields: null } },
      {
        ...live,
        metadata: { ...live.metadata, managedFields: null },
      },
    ) ||
    conflicts.length > 0 ||
    !sameSets;
  me.time = changedObj || !before ? nowIso() : before.time;
  writeEntries(next, entries, def.builtin);
  return { obj: next, changed: changedObj };
}
