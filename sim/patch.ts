// JSON merge patch (RFC 7386), JSON patch (RFC 6902) and strategic merge patch.
import { apiError } from './errors.ts';
import { deepEqual } from './json.ts';
import type { ListKeyFn } from './listtypes.ts';
import { itemKey } from './listtypes.ts';
import type { Json, JsonObject } from './types.ts';
import { isObj } from './types.ts';

export function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObj(patch)) return structuredClone(patch);
  const out: JsonObject = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

const rejected = () =>
  apiError(422, 'the server rejected our request due to an error in our request', 'Invalid', {});

function unescapeSegment(seg: string): string {
  return seg.replace(/~1/g, '/').replace(/~0/g, '~');
}

function parent(doc: Json, path: string): { container: Json; key: string } {
  if (!path.startsWith('/')) throw rejected();
  const segs = path.slice(1).split('/').map(unescapeSegment);
  const key = segs.pop() as string;
  let cur: Json = doc;
  for (const s of segs) {
    const next: Json | undefined = Array.isArray(cur) ? cur[Number(s)] : isObj(cur) ? cur[s] : undefined;
    if (next === undefined) throw rejected();
    cur = next;
  }
  return { container: cur, key };
}

function readAt(doc: Json, path: string): Json {
  if (path === '') return doc;
  const { container, key } = parent(doc, path);
  const v = Array.isArray(container) ? container[Number(key)] : isObj(container) ? container[key] : undefined;
  if (v === undefined) throw rejected();
  return v;
}

function removeAt(doc: Json, path: string): Json {
  const { container, key } = parent(doc, path);
  if (Array.isArray(container)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= container.length) throw rejected();
    return container.splice(i, 1)[0] as Json;
  }
  if (!isObj(container) || !(key in container)) throw rejected();
  const v = container[key] as Json;
  delete container[key];
  return v;
}

function addAt(doc: Json, path: string, value: Json, replace: boolean): void {
  const { container, key } = parent(doc, path);
  if (Array.isArray(container)) {
    const i = key === '-' ? container.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > container.length || (replace && i >= container.length))
      throw rejected();
    if (replace) container[i] = value;
    else container.splice(i, 0, value);
  } else if (isObj(container)) {
    if (replace && !(key in container)) throw rejected();
    container[key] = value;
  } else throw rejected();
}

export function jsonPatch(target: Json, ops: Json): Json {
  if (!Array.isArray(ops)) {
    throw apiError(
      400,
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
      'BadRequest',
    );
  }
  const doc = structuredClone(target);
  for (const op of ops) {
    if (!isObj(op) || typeof op.path !== 'string') throw rejected();
    const path = op.path;
    const value = op.value as Json;
    switch (op.op) {
      case 'add':
        addAt(doc, path, structuredClone(value), false);
        break;
      case 'replace':
        addAt(doc, path, structuredClone(value), true);
        break;
      case 'remove':
        removeAt(doc, path);
        break;
      case 'test':
        if (!deepEqual(readAt(doc, path), value)) throw rejected();
        break;
      case 'move':
      case 'copy': {
        if (typeof op.from !== 'string') throw rejected();
        const v = op.op === 'move' ? removeAt(doc, op.from) : structuredClone(readAt(doc, op.from));
        addAt(doc, path, v, false);
        break;
      }
      default:
        throw rejected();
    }
  }
  return doc;
}

export function strategicMerge(
  target: Json | undefined,
  patch: Json,
  keys: ListKeyFn,
  path: string[] = [],
): Json {
  if (!isObj(patch)) return structuredClone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _, ...rest } = patch;
    return structuredClone(rest);
  }
  const out: JsonObject = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    const p = [...path, k];
    if (v === null) delete out[k];
    else if (isObj(v) && v.$patch === 'delete') delete out[k];
    else if (Array.isArray(v) && keys(p)) out[k] = mergeList(out[k], v, keys(p) as string[], keys, p);
    else if (isObj(v)) out[k] = strategicMerge(out[k], v, keys, p);
    else out[k] = structuredClone(v);
  }
  return out;
}

function mergeList(
  target: Json | undefined,
  patch: Json[],
  mk: string[],
  keys: ListKeyFn,
  path: string[],
): Json {
  const out: Json[] = Array.isArray(target) ? [...target] : [];
  for (const item of patch) {
    const id = itemKey(item, mk);
    const idx = id === undefined ? -1 : out.findIndex((x) => itemKey(x, mk) === id);
    if (isObj(item) && item.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
    } else if (idx >= 0) out[idx] = strategicMerge(out[idx], item, keys, path);
    else out.push(strategicMerge(undefined, item, keys, path));
  }
  return out;
}
