/**
 * The trimmed facts of one Node that the inventory needs, and the validator that makes them from the
 * API's raw JSON. A whole Node is about 14 KB (images, managedFields); the watcher caches these
 * instead, well under 1 KB each, so a 5,000-node cluster costs a few MB.
 */
import { clusterText } from '../../common/cluster-text.ts';
import type { NodeReadiness } from '../../common/inventory.ts';
import { intern } from './intern.ts';
import { isInventoryLabel, RESOURCE_PREFIX } from './labels.ts';

export interface NodeFacts {
  name: string;
  /** metadata.uid: a node deleted and re-created under the same name is another object ('' if missing). */
  uid: string;
  resourceVersion: string;
  /** Only the labels the inventory uses: GPU Feature Discovery / GPU Operator ones and NFD's pci-10de.present. */
  labels: Record<string, string>;
  ready: { status: NodeReadiness; reason: string | null; message: string | null; since: string | null };
  /** Only `nvidia.com/*` resources, as the API's quantity strings. */
  capacity: Record<string, string>;
  allocatable: Record<string, string>;
  unschedulable: boolean;
  taints: { key: string; value: string | null; effect: string }[];
}

/** A condition's reason is one CamelCase word; anything longer is cut. */
const MAX_REASON = 64;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Validates a raw v1 Node and keeps what the inventory needs; null when it is not a named object. */
export function trimNode(raw: unknown): NodeFacts | null {
  if (!isObj(raw) || !isObj(raw.metadata)) return null;
  const name = str(raw.metadata.name);
  if (name === null || name === '') return null;
  const spec = isObj(raw.spec) ? raw.spec : {};
  const status = isObj(raw.status) ? raw.status : {};
  return {
    name,
    uid: str(raw.metadata.uid) ?? '',
    resourceVersion: str(raw.metadata.resourceVersion) ?? '',
    labels: pick(raw.metadata.labels, isInventoryLabel),
    ready: readyCondition(status.conditions),
    capacity: pick(status.capacity, isNvidiaResource),
    allocatable: pick(status.allocatable, isNvidiaResource),
    unschedulable: spec.unschedulable === true,
    taints: taints(spec.taints),
  };
}

function isNvidiaResource(key: string): boolean {
  return key.startsWith(RESOURCE_PREFIX);
}

/** Shared by every node that has none: most nodes of a large cluster carry no GPU labels or taints. */
const NO_VALUES: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_TAINTS: NodeFacts['taints'] = Object.freeze([]) as unknown as NodeFacts['taints'];

/** Copies the string (or, leniently, numeric) values of the wanted keys, interned. */
function pick(source: unknown, want: (key: string) => boolean): Record<string, string> {
  if (!isObj(source)) return NO_VALUES;
  let out: Record<string, string> | null = null;
  for (const [key, value] of Object.entries(source)) {
    if (!want(key)) continue;
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' && Number.isFinite(value)
          ? String(value)
          : null;
    if (text === null) continue;
    out ??= {};
    out[intern(key)] = intern(text);
  }
  return out ?? NO_VALUES;
}

const NO_READY_CONDITION: NodeFacts['ready'] = Object.freeze({
  status: 'Unknown',
  reason: null,
  message: null,
  since: null,
});
const internOrNull = (v: string | null): string | null => (v === null ? null : intern(v));

function readyCondition(conditions: unknown): NodeFacts['ready'] {
  if (!Array.isArray(conditions)) return NO_READY_CONDITION;
  // Last one wins should a broken API ever send two.
  const ready = conditions.filter((c): c is Obj => isObj(c) && c.type === 'Ready').at(-1);
  if (ready === undefined) return NO_READY_CONDITION;
  const s = ready.status;
  // Kubelet (or whoever patched the status) wrote these: one line through the text gate, capped.
  const reason = clusterText(ready.reason, MAX_REASON);
  const message = clusterText(ready.message);
  return {
    status: s === 'True' || s === 'False' ? s : 'Unknown',
    reason: reason === '' ? null : intern(reason),
    message: message === '' ? null : intern(message),
    since: str(ready.lastTransitionTime),
  };
}

function taints(raw: unknown): NodeFacts['taints'] {
  if (!Array.isArray(raw) || raw.length === 0) return NO_TAINTS;
  const out: NodeFacts['taints'] = [];
  for (const t of raw) {
    if (!isObj(t)) continue;
    const key = str(t.key);
    const effect = str(t.effect);
    if (key === null || effect === null) continue;
    out.push({ key: intern(key), value: internOrNull(str(t.value)), effect: intern(effect) });
  }
  return out.length ? out : NO_TAINTS;
}
