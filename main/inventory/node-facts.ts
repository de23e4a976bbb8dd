/**
 * The trimmed facts of one Node that the inventory needs, and the validator that makes them from the
 * API's raw JSON. A whole Node is about 14 KB (images, managedFields); the watcher caches these
 * instead, well under 1 KB each, so a 5,000-node cluster costs a few MB.
 *
 * What is kept is bounded whatever the server sends: label and taint values are cut at the 63 characters
 * Kubernetes allows (a cut value ends in "…", which no real value contains, so it cannot pass for one),
 * keys longer than a qualified name can be are dropped, at most MAX_KEPT entries are kept per map and
 * MAX_TAINTS taints per node, the Ready message goes through clusterText (one line, 300 characters) and
 * the reason and timestamp are cut too. A node whose name is not one a real API server stores (a DNS-1123
 * subdomain: at most 253 lowercase alphanumerics, '-' and '.', starting and ending alphanumeric) is
 * refused: such a name can only come from a server that is not Kubernetes, and may carry control
 * characters or bidi overrides that would reach notifications, the tray and the window.
 */

import { clusterText } from '../../common/cluster-text.ts';
import { type HealthCondition, signalsFault } from '../../common/gpu-why.ts';
import type { NodeReadiness } from '../../common/inventory.ts';
import { isObj, type JsonRecord, str } from '../../common/json-guards.ts';
import { isNodeName, MAX_NODE_NAME } from '../../common/k8s-names.ts';
import { intern } from './intern.ts';
import { jsonEqual } from './json-equal.ts';
import { isInventoryLabel, RESOURCE_PREFIX } from './labels.ts';
import { entryKey, keyOf, nullableKey, sharePool } from './share.ts';

export interface NodeFacts {
  name: string;
  /**
   * A 30-bit hash of metadata.uid (0 if missing): a node deleted and re-created under the same name is
   * another object. A hash, not the 36-character uid, because a small integer costs no heap of its own
   * (bench row 3); a collision (about one in a billion replacements) only keeps stale last-seen labels.
   */
  uid: number;
  resourceVersion: string;
  /** Only the labels the inventory uses: GPU Feature Discovery / GPU Operator ones and NFD's pci-10de.present. */
  labels: Readonly<Record<string, string>>;
  /**
   * The Ready condition. `since` (its lastTransitionTime) is kept only while the node is not Ready, the
   * only time anything shows it (`not_ready_since`): so the facts of Ready nodes with the same reason and
   * message are one shared object (bench row 3).
   */
  ready: Readonly<{
    status: NodeReadiness;
    reason: string | null;
    message: string | null;
    since: string | null;
  }>;
  /** Only `nvidia.com/*` resources, as the API's quantity strings. */
  capacity: Readonly<Record<string, string>>;
  allocatable: Readonly<Record<string, string>>;
  unschedulable: boolean;
  taints: readonly Readonly<{ key: string; value: string | null; effect: string }>[];
  /**
   * The GPU health conditions of other tools that say something is wrong (common/gpu-why.ts
   * `signalsFault`: NVSentinel, Node Problem Detector, the EKS agent), at most MAX_HEALTH; most nodes
   * have none.
   */
  health: HealthCondition[];
}

export const MAX_HEALTH = 8;

/** Kubernetes label values (and taint values) are at most 63 characters. */
export const MAX_LABEL_VALUE = 63;
/** A qualified name: a DNS-subdomain prefix (253), a slash and a 63-character name. */
export const MAX_KEY = 253 + 1 + 63;
export { isNodeName, MAX_NODE_NAME };
/** Entries kept per labels/capacity/allocatable map (the inventory uses a handful; MIG adds a few each). */
export const MAX_KEPT = 64;
export const MAX_TAINTS = 32;
/** A condition's reason is one CamelCase word; anything longer is cut. */
const MAX_REASON = 64;
const MAX_TIMESTAMP = 64;

/**
 * True when `b` says nothing new over `a`: equal apart from the resourceVersion (a kubelet heartbeat moves
 * it and touches only fields we do not keep), so the node cache does not count it as a change.
 */
export function sameNodeFacts(a: NodeFacts, b: NodeFacts): boolean {
  return jsonEqual({ ...a, resourceVersion: '' }, { ...b, resourceVersion: '' });
}

/** FNV-1a over the uid's first 64 characters, cut to 30 bits so V8 keeps it as a small integer. */
function uidHash(uid: string | null): number {
  if (uid === null || uid === '') return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < Math.min(uid.length, MAX_TIMESTAMP); i++) {
    h ^= uid.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h & 0x3fffffff || 1;
}

/** Validates a raw v1 Node and keeps what the inventory needs; null when it is not a named object. */
export function trimNode(raw: unknown): NodeFacts | null {
  if (!isObj(raw) || !isObj(raw.metadata)) return null;
  const name = raw.metadata.name;
  if (!isNodeName(name)) return null;
  const spec = isObj(raw.spec) ? raw.spec : {};
  const status = isObj(raw.status) ? raw.status : {};
  return {
    name,
    uid: uidHash(str(raw.metadata.uid)),
    resourceVersion: capped(str(raw.metadata.resourceVersion) ?? '', MAX_TIMESTAMP),
    labels: pick(raw.metadata.labels, isInventoryLabel),
    ready: readyCondition(status.conditions),
    capacity: pick(status.capacity, isNvidiaResource),
    allocatable: pick(status.allocatable, isNvidiaResource),
    unschedulable: spec.unschedulable === true,
    taints: taints(spec.taints),
    health: health(status.conditions),
  };
}

const NO_HEALTH: HealthCondition[] = Object.freeze([]) as unknown as HealthCondition[];

function health(conditions: unknown): HealthCondition[] {
  if (!Array.isArray(conditions)) return NO_HEALTH;
  let out: HealthCondition[] | null = null;
  for (const c of conditions) {
    if (!isObj(c) || typeof c.type !== 'string' || typeof c.status !== 'string') continue;
    if (c.type.length > MAX_REASON || !signalsFault({ type: c.type, status: c.status })) continue;
    const reason = clusterText(c.reason, MAX_REASON);
    const message = clusterText(c.message, 200);
    out ??= [];
    out.push({
      type: intern(clusterText(c.type, MAX_REASON)),
      status: intern(capped(c.status, 20)),
      reason: reason === '' ? null : intern(reason),
      message: message === '' ? null : message,
    });
    if (out.length >= MAX_HEALTH) break;
  }
  return out ?? NO_HEALTH;
}

function isNvidiaResource(key: string): boolean {
  return key.startsWith(RESOURCE_PREFIX);
}

/** Shared by every node that has none: most nodes of a large cluster carry no GPU labels or taints. */
const NO_VALUES: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_TAINTS: NodeFacts['taints'] = Object.freeze([]);

/**
 * The kept label, capacity and allocatable maps, Ready conditions and taint lists, one frozen copy per
 * distinct value (share.ts): nodes of one kind carry the same ones, so each is held once, not per node.
 */
const records = sharePool<Record<string, string>>();
const readies = sharePool<NodeFacts['ready']>();
const taintLists = sharePool<NodeFacts['taints']>((list) => {
  for (const t of list) Object.freeze(t);
  Object.freeze(list);
});

/**
 * The value cut to `max` characters, marked with "…" when cut. The cut is copied character by character:
 * a V8 slice of a long string keeps the whole original alive, and the original may be a megabyte.
 */
function capped(value: string, max: number): string {
  if (value.length <= max) return value;
  return `${Array.from(value.slice(0, max)).join('')}…`;
}

/** Copies the string (or, leniently, numeric) values of the wanted keys, capped and interned. */
function pick(source: unknown, want: (key: string) => boolean): Record<string, string> {
  if (!isObj(source)) return NO_VALUES;
  let out: Record<string, string> | null = null;
  let kept = 0;
  for (const key in source) {
    if (!Object.hasOwn(source, key) || key.length > MAX_KEY || !want(key)) continue;
    const value = source[key];
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' && Number.isFinite(value)
          ? String(value)
          : null;
    if (text === null) continue;
    // A plain object, not Object.create(null): a null-prototype object is a V8 dictionary, ~2.5× the heap
    // per cached node (bench row 3). Safe here because `want` admits only `nvidia.com/…` and fixed label
    // names, so no key such as `__proto__` or `constructor` is ever stored, and readers look up fixed keys.
    out ??= {};
    out[intern(key)] = intern(capped(text, MAX_LABEL_VALUE));
    if (++kept >= MAX_KEPT) break;
  }
  return out === null ? NO_VALUES : records.share(keyOf(out), out);
}

const NO_READY_CONDITION: NodeFacts['ready'] = Object.freeze({
  status: 'Unknown',
  reason: null,
  message: null,
  since: null,
});

function readyCondition(conditions: unknown): NodeFacts['ready'] {
  if (!Array.isArray(conditions)) return NO_READY_CONDITION;
  // Last one wins should a broken API ever send two.
  const ready = conditions.filter((c): c is JsonRecord => isObj(c) && c.type === 'Ready').at(-1);
  if (ready === undefined) return NO_READY_CONDITION;
  const s = ready.status;
  // Kubelet (or whoever patched the status) wrote these: one line through the text gate, capped.
  const reason = clusterText(ready.reason, MAX_REASON);
  const message = clusterText(ready.message);
  const status: NodeReadiness = s === 'True' || s === 'False' ? s : 'Unknown';
  const since = status === 'True' ? null : str(ready.lastTransitionTime);
  const kept: NodeFacts['ready'] = {
    status,
    reason: reason === '' ? null : intern(reason),
    message: message === '' ? null : intern(message),
    since: since === null ? null : capped(since, MAX_TIMESTAMP),
  };
  // A NotReady node's since is its own (rarely shared, so not pooled); a Ready node has none.
  if (since !== null) return Object.freeze(kept);
  return readies.share(entryKey(status) + nullableKey(kept.reason) + nullableKey(kept.message), kept);
}

function taints(raw: unknown): NodeFacts['taints'] {
  if (!Array.isArray(raw) || raw.length === 0) return NO_TAINTS;
  const out: { key: string; value: string | null; effect: string }[] = [];
  for (const t of raw) {
    if (out.length >= MAX_TAINTS) break;
    if (!isObj(t)) continue;
    const key = str(t.key);
    const effect = str(t.effect);
    if (key === null || effect === null || key.length > MAX_KEY) continue;
    const value = str(t.value);
    out.push({
      key: intern(key),
      value: value === null ? null : intern(capped(value, MAX_LABEL_VALUE)),
      effect: intern(capped(effect, MAX_LABEL_VALUE)),
    });
  }
  if (out.length === 0) return NO_TAINTS;
  let key = '';
  for (const t of out) key += entryKey(t.key) + nullableKey(t.value) + entryKey(t.effect);
  return taintLists.share(key, out);
}
