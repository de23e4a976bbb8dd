// Canonical key order for stored objects and cached JSON encodings for lists and watch events.
import { sortKeys } from './json.ts';
import type { Json, JsonObject, KObj, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];
const NODE_STATUS_ORDER = [
  'capacity',
  'allocatable',
  'phase',
  'conditions',
  'addresses',
  'daemonEndpoints',
  'nodeInfo',
];
const CONDITION_ORDER = [
  'type',
  'status',
  'lastHeartbeatTime',
  'lastProbeTime',
  'lastTransitionTime',
  'reason',
  'message',
];

function ordered(o: JsonObject, order: string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of order) if (o[k] !== undefined) out[k] = o[k] as Json;
  for (const [k, v] of Object.entries(o)) if (!(k in out)) out[k] = v;
  return out;
}

/** Puts an object's keys in the order kube-apiserver encodes them (Go struct order, or sorted for CRs). */
export function canonical(def: ResourceDef, o: KObj): KObj {
  if (!def.builtin) return sortKeys(o) as KObj;
  const out = ordered(o, ['kind', 'apiVersion', 'metadata', 'spec', 'data', 'binaryData', 'status']) as KObj;
  out.metadata = ordered(o.metadata, META_ORDER);
  if (def.resource === 'nodes' && isObj(out.status)) {
    const st = ordered(out.status, NODE_STATUS_ORDER);
    if (Array.isArray(st.conditions)) {
      st.conditions = st.conditions.map((c) => (isObj(c) ? ordered(c, CONDITION_ORDER) : c));
    }
    out.status = st;
  }
  return out;
}

const full = new WeakMap<KObj, string>();

export function objectJson(o: KObj): string {
  let s = full.get(o);
  if (s === undefined) {
    s = JSON.stringify(o);
    full.set(o, s);
  }
  return s;
}

/** The JSON of a list item: built-in kinds leave out kind/apiVersion, custom resources keep them. */
export function itemJson(def: ResourceDef, o: KObj): string {
  const s = objectJson(o);
  if (!def.builtin) return s;
  const prefix = `{"kind":${JSON.stringify(def.kind)},"apiVersion":"v1",`.replace(
    '"v1"',
    JSON.stringify(def.group ? `${def.group}/${def.version}` : def.version),
  );
  if (s.startsWith(prefix)) return `{${s.slice(prefix.length)}`;
  const { kind: _k, apiVersion: _a, ...rest } = o;
  return JSON.stringify(rest);
}
