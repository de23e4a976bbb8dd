/**
 * What the free-GPU figures keep of a Pod, and the validator that makes it from the API's raw JSON: only
 * pods that request a GPU resource are kept (wantsGpu decides before anything is copied, so the many
 * pods that request none cost no memory), and of them only the namespace, name, node, phase, the
 * effective request per GPU resource (pod-requests.ts), and for a pod not yet bound its tolerations and
 * the scheduler's PodScheduled reason and message. Bounded like nodes: names are checked as the API server would, lists are capped,
 * texts go through the text gate, and the request and toleration objects are shared between pods that
 * carry equal ones (most GPU pods of a cluster ask for the same thing).
 */
import { clusterText } from '../../common/cluster-text.ts';
import { isObj, type JsonRecord, str } from '../../common/json-guards.ts';
import { isNamespaceName, isNodeName } from '../../common/k8s-names.ts';
import { intern } from './intern.ts';
import { isGpuEvidenceResource } from './labels.ts';
import { parseCountQuantity } from './parse.ts';
import { type ContainerRequests, podRequests, type Quantities, requestsOrLimits } from './pod-requests.ts';
import type { Toleration } from './tolerations.ts';

export interface GpuPod {
  namespace: string;
  name: string;
  /** spec.nodeName: null while the pod is not bound. */
  node: string | null;
  phase: string;
  /** Effective requests of GPU resources (> 0 only), by resource name. */
  requests: Quantities;
  /** Kept only while the pod is not bound (they explain why it waits; a bound pod's are never read). */
  tolerations?: readonly Toleration[];
  /** The PodScheduled condition while it is not True (a Pending pod the scheduler could not place); unbound pods only. */
  unscheduled?: { reason: string | null; message: string | null } | null;
}

/** Containers read per list (a real pod has a handful); tolerations kept per pod. */
export const MAX_CONTAINERS = 64;
export const MAX_TOLERATIONS = 32;
const MAX_RESOURCES = 16;
const MAX_REASON = 64;

/**
 * A kept pod holds one string for its namespace and name: its cache key `namespace/name`, the very string
 * the pod cache's Map holds as its key (podKey hands it out), and reads the two from it when asked (only
 * shown Pending pods are). A separate name string cost ~40 B per pod at 20,000 GPU pods. Neither a
 * namespace nor a pod name can hold a '/'.
 */
class KeptPod implements GpuPod {
  // `declare`: not own fields of every pod (most are bound and never carry them), set on unbound ones only.
  declare tolerations?: readonly Toleration[];
  declare unscheduled?: { reason: string | null; message: string | null } | null;

  constructor(
    readonly key: string,
    readonly node: string | null,
    readonly phase: string,
    readonly requests: Quantities,
  ) {}

  get namespace(): string {
    return this.key.slice(0, this.key.indexOf('/'));
  }

  get name(): string {
    return this.key.slice(this.key.indexOf('/') + 1);
  }
}

/** The cache key of a pod: `namespace/name` (pod names are unique only within a namespace). */
export function podKey(pod: Pick<GpuPod, 'namespace' | 'name'>): string {
  if (pod instanceof KeptPod) return pod.key;
  // join makes one flat string; a template literal makes a cons string that the pod cache's Map then
  // flattens into a second copy (24 B more per kept pod, measured at 20,000 pods).
  return [pod.namespace, pod.name].join('/');
}

/** True when any container, init container or the overhead names a GPU resource (cheap; copies nothing). */
export function wantsGpu(raw: unknown): boolean {
  const spec = isObj(raw) && isObj(raw.spec) ? raw.spec : null;
  if (spec === null) return false;
  if (namesGpu(spec.overhead)) return true;
  for (const list of [spec.containers, spec.initContainers]) {
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length && i < MAX_CONTAINERS; i++) {
      const c: unknown = list[i];
      const res = isObj(c) && isObj(c.resources) ? c.resources : null;
      if (res !== null && (namesGpu(res.requests) || namesGpu(res.limits))) return true;
    }
  }
  return false;
}

function namesGpu(map: unknown): boolean {
  if (!isObj(map)) return false;
  for (const key in map) if (Object.hasOwn(map, key) && isGpuEvidenceResource(key)) return true;
  return false;
}

/** Validates a raw v1 Pod and keeps what free GPUs need; null when it requests no GPU or is not a named pod. */
export function trimGpuPod(raw: unknown): GpuPod | null {
  if (!wantsGpu(raw) || !isObj(raw) || !isObj(raw.metadata)) return null;
  const { name, namespace } = raw.metadata;
  if (!isNodeName(name) || !isNamespaceName(namespace)) return null;
  const spec = isObj(raw.spec) ? raw.spec : {};
  const status = isObj(raw.status) ? raw.status : {};
  const requests = gpuRequestsOfSpec(spec);
  if (Object.keys(requests).length === 0) return null;
  const node = isNodeName(spec.nodeName) ? intern(spec.nodeName) : null;
  const kept = new KeptPod(
    [namespace, name].join('/'),
    node,
    intern(clusterText(status.phase, MAX_REASON) || 'Unknown'),
    shared(requests),
  );
  // 20,000 bound GPU pods would each carry two fields no figure reads: only unbound pods keep them.
  if (node === null) {
    kept.tolerations = sharedTolerations(readTolerations(spec.tolerations));
    kept.unscheduled = unscheduled(status.conditions);
  }
  return kept;
}

/** The effective GPU requests (> 0) of a pod spec (raw JSON, from the API or a pod file). */
export function gpuRequestsOfSpec(spec: JsonRecord): Record<string, number> {
  const all = podRequests({
    containers: containers(spec.containers),
    initContainers: containers(spec.initContainers),
    overhead: gpuQuantities(spec.overhead),
  });
  const out: Record<string, number> = {};
  for (const name of Object.keys(all).sort()) if ((all[name] ?? 0) > 0) out[name] = all[name] ?? 0;
  return out;
}

function containers(list: unknown): ContainerRequests[] {
  if (!Array.isArray(list)) return [];
  const out: ContainerRequests[] = [];
  for (const c of list.slice(0, MAX_CONTAINERS)) {
    if (!isObj(c)) continue;
    const res = isObj(c.resources) ? c.resources : {};
    out.push({
      requests: requestsOrLimits(gpuQuantities(res.requests), gpuQuantities(res.limits)),
      sidecar: c.restartPolicy === 'Always',
    });
  }
  return out;
}

/** GPU resources of a requests/limits map as whole numbers; a quantity that is not one is left out. */
function gpuQuantities(map: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isObj(map)) return out;
  let n = 0;
  for (const key in map) {
    if (!Object.hasOwn(map, key) || !isGpuEvidenceResource(key)) continue;
    const v = map[key];
    const parsed = parseCountQuantity(typeof v === 'number' ? String(v) : (str(v) ?? ''));
    if (parsed.ok) out[key] = parsed.value;
    if (++n >= MAX_RESOURCES) break;
  }
  return out;
}

export function readTolerations(raw: unknown): Toleration[] {
  if (!Array.isArray(raw)) return [];
  const out: Toleration[] = [];
  for (const t of raw) {
    if (out.length >= MAX_TOLERATIONS) break;
    if (!isObj(t)) continue;
    const key = str(t.key);
    const value = str(t.value);
    const effect = str(t.effect);
    out.push({
      key: key === null || key === '' ? null : clusterText(key, 317),
      operator: t.operator === 'Exists' ? 'Exists' : 'Equal',
      value: value === null ? null : clusterText(value, 63),
      effect: effect === null || effect === '' ? null : clusterText(effect, MAX_REASON),
    });
  }
  return out;
}

function unscheduled(conditions: unknown): GpuPod['unscheduled'] {
  if (!Array.isArray(conditions)) return null;
  const c = conditions.filter((x): x is JsonRecord => isObj(x) && x.type === 'PodScheduled').at(-1);
  if (c === undefined || c.status === 'True') return null;
  const reason = clusterText(c.reason, MAX_REASON);
  const message = clusterText(c.message);
  return { reason: reason === '' ? null : intern(reason), message: message === '' ? null : message };
}

/** Equal request maps and toleration lists are one object (bounded pools; a miss costs memory only). */
const POOL_MAX = 1000;
const requestPool = new Map<string, Quantities>();
const tolerationPool = new Map<string, readonly Toleration[]>();

function shared(requests: Record<string, number>): Quantities {
  return pooled(requestPool, JSON.stringify(requests), requests);
}

function sharedTolerations(list: Toleration[]): readonly Toleration[] {
  return pooled(tolerationPool, JSON.stringify(list), list);
}

function pooled<T>(pool: Map<string, T>, key: string, value: T): T {
  const known = pool.get(key);
  if (known !== undefined) return known;
  if (pool.size >= POOL_MAX) pool.clear();
  const frozen = Object.freeze(value);
  pool.set(key, frozen);
  return frozen;
}
