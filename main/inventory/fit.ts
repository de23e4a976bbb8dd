/**
 * Can a job with N GPUs run in this cluster now, and where; if not, why not, in the order a user fixes
 * things (pure): no node offers the product or slot kind; enough free in total but not on one node
 * (fragmentation, with the free per node); the nodes with enough free are cordoned, tainted (which taint,
 * against the job's tolerations) or NotReady; not enough free anywhere; and, when the pods cannot be read,
 * free GPUs unknown (the node reasons then name the nodes whose allocatable is enough, without counts,
 * and nothing is said to fit or not to fit).
 */
import type { BlockingTaint, NodeFree, SlotFree } from '../../common/free-gpus.ts';
import { type Toleration, taintText, tolerationText, untolerated } from './tolerations.ts';

export type FitWant =
  | { kind: 'whole' }
  | { kind: 'mig'; profile: string }
  | { kind: 'shared' }
  /** An exact resource name, as a pod file asks for it (the scheduler's view: any node offering it). */
  | { kind: 'resource'; resource: string };

export interface FitRequest {
  count: number;
  want: FitWant;
  /** A product (label or part of it, e.g. `A100`, `RTX 4090`); null for any. */
  product: string | null;
  tolerations: readonly Toleration[];
}

export interface NodeCount {
  node: string;
  /** Null when the pods are unknown: the node is named, its free is not told. */
  free: number | null;
}

export type FitReason =
  /** `offeredAs`: how the asked product is offered instead (its MIG profiles; shared replicas). */
  | { kind: 'no-product'; offeredAs?: { mig: string[]; shared: boolean } }
  | { kind: 'fragmented'; total: number; nodes: NodeCount[] }
  | { kind: 'cordoned'; nodes: NodeCount[] }
  | { kind: 'tainted'; nodes: (NodeCount & { taints: string[] })[] }
  | { kind: 'not-ready'; nodes: NodeCount[] }
  | { kind: 'insufficient'; most: number }
  | { kind: 'pods-unknown'; message: string };

export interface FitResult {
  /** Nodes that can take the job now, most free first, and the resource it would use there. */
  fits: (NodeCount & { resource: string; product: string | null })[];
  reasons: FitReason[];
}

/** Taints the node lifecycle controller sets for cordon and NotReady: reported as those, not as taints. */
const LIFECYCLE_TAINTS = new Set([
  'node.kubernetes.io/unschedulable',
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
]);

/**
 * @param nodes the cluster's nodes with free counts (from clusterFree); when `podsUnknown` is set they
 *   were computed without pods, so their free is their allocatable.
 */
export function fitCluster(
  nodes: readonly NodeFree[],
  request: FitRequest,
  podsUnknown: string | null,
): FitResult {
  const n = request.count;
  const cands: { node: NodeFree; slot: SlotFree }[] = [];
  for (const node of nodes) {
    if (request.product !== null && !matchesProduct(node.product, request.product)) continue;
    for (const slot of node.slots) if (matchesWant(slot, request.want)) cands.push({ node, slot });
  }
  if (cands.length === 0) return { fits: [], reasons: [noProduct(nodes, request)] };
  const blockers = (node: NodeFree): BlockingTaint[] =>
    untolerated(node.taints, request.tolerations).filter((t) => !LIFECYCLE_TAINTS.has(t.key));
  const usable = cands.filter(
    (c) => c.node.ready && !c.node.cordoned && untolerated(c.node.taints, request.tolerations).length === 0,
  );
  const byFree = (a: NodeCount, b: NodeCount) => (b.free ?? 0) - (a.free ?? 0) || (a.node < b.node ? -1 : 1);
  if (podsUnknown === null) {
    const fits = usable
      .filter((c) => c.slot.free >= n)
      .map((c) => ({
        node: c.node.name,
        free: c.slot.free,
        resource: c.slot.resource,
        product: c.node.product,
      }))
      .sort(byFree);
    if (fits.length > 0) return { fits, reasons: [] };
  }
  const reasons: FitReason[] = [];
  const count = (c: { node: NodeFree; slot: SlotFree }): NodeCount => ({
    node: c.node.name,
    free: podsUnknown === null ? c.slot.free : null,
  });
  const total = usable.reduce((s, c) => s + c.slot.free, 0);
  if (podsUnknown === null && total >= n)
    reasons.push({
      kind: 'fragmented',
      total,
      nodes: usable
        .filter((c) => c.slot.free > 0)
        .map(count)
        .sort(byFree),
    });
  // Pods unknown: the nodes that could take it if their GPUs were free (allocatable is all that is told).
  const enough = cands.filter((c) => (podsUnknown === null ? c.slot.free : c.slot.allocatable) >= n);
  const cordoned = enough.filter((c) => c.node.cordoned);
  if (cordoned.length > 0) reasons.push({ kind: 'cordoned', nodes: cordoned.map(count).sort(byFree) });
  const tainted = enough.filter((c) => !c.node.cordoned && blockers(c.node).length > 0);
  if (tainted.length > 0)
    reasons.push({
      kind: 'tainted',
      nodes: tainted.map((c) => ({ ...count(c), taints: blockers(c.node).map(taintText) })).sort(byFree),
    });
  const down = enough.filter((c) => !c.node.ready && !c.node.cordoned && blockers(c.node).length === 0);
  if (down.length > 0) reasons.push({ kind: 'not-ready', nodes: down.map(count).sort(byFree) });
  if (podsUnknown !== null) reasons.push({ kind: 'pods-unknown', message: podsUnknown });
  else if (reasons.length === 0)
    reasons.push({ kind: 'insufficient', most: usable.reduce((m, c) => Math.max(m, c.slot.free), 0) });
  return { fits: [], reasons };
}

/** No node offers what was asked; when the product is offered as MIG profiles or shared replicas, say so. */
function noProduct(nodes: readonly NodeFree[], request: FitRequest): FitReason {
  if (request.want.kind === 'resource') return { kind: 'no-product' };
  const mig = new Set<string>();
  let shared = false;
  for (const node of nodes) {
    if (request.product !== null && !matchesProduct(node.product, request.product)) continue;
    for (const slot of node.slots) {
      if (slot.kind === 'mig' && slot.profile !== null) mig.add(slot.profile);
      if (slot.kind === 'shared') shared = true;
    }
  }
  // Asked for a MIG profile no node has: the profiles there are what the job could ask instead.
  if (request.want.kind === 'mig') mig.delete(request.want.profile);
  if (request.want.kind === 'shared') shared = false;
  if (mig.size === 0 && !shared) return { kind: 'no-product' };
  return { kind: 'no-product', offeredAs: { mig: [...mig].sort(), shared } };
}

function matchesWant(slot: SlotFree, want: FitWant): boolean {
  switch (want.kind) {
    case 'whole':
    case 'shared':
      return slot.kind === want.kind;
    case 'mig':
      return slot.kind === 'mig' && slot.profile === want.profile;
    case 'resource':
      return slot.resource === want.resource;
  }
}

const norm = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');

/** `A100`, `a100-sxm4`, `RTX 4090` or the whole label match `NVIDIA-A100-SXM4-40GB` on dash boundaries. */
export function matchesProduct(product: string | null, asked: string): boolean {
  if (product === null) return false;
  const label = norm(product);
  const want = norm(asked);
  if (want === '') return false;
  return label === want || `-${label}-`.includes(`-${want}-`);
}

/** English, for the CLI: one line per reason. */
export function reasonSentence(r: FitReason, request: FitRequest): string {
  const one = (x: NodeCount) => (x.free === null ? x.node : `${x.node} ${x.free}`);
  const list = (nodes: readonly NodeCount[]) => nodes.map(one).join(', ');
  switch (r.kind) {
    case 'no-product':
      return `no node offers ${wantText(request)}${offeredText(r.offeredAs)}`;
    case 'fragmented':
      return `${r.total} free in total but not ${request.count} on one node (free per node: ${list(r.nodes)})`;
    case 'cordoned':
      return `cordoned: ${list(r.nodes)}`;
    case 'tainted': {
      // What the job tolerates explains why these taints keep it off.
      const tolerated = request.tolerations.map(tolerationText);
      const job =
        tolerated.length === 0 ? 'the job tolerates none' : `the job tolerates ${tolerated.join(', ')}`;
      return `tainted: ${r.nodes.map((x) => `${one(x)} (${x.taints.join(', ')})`).join('; ')}; ${job}`;
    }
    case 'not-ready':
      return `NotReady: ${list(r.nodes)}`;
    case 'insufficient':
      return `not enough free: at most ${r.most} on one usable node, ${request.count} needed`;
    case 'pods-unknown':
      return r.message;
  }
}

function offeredText(o: { mig: string[]; shared: boolean } | undefined): string {
  if (o === undefined) return '';
  const ways: string[] = [];
  if (o.mig.length > 0)
    ways.push(
      `as MIG ${o.mig.length === 1 ? 'profile' : 'profiles'} ${o.mig.join(', ')} (ask with --mig ${o.mig[0]})`,
    );
  if (o.shared) ways.push('as shared replicas (ask with --shared)');
  return `; offered instead ${ways.join(' and ')}`;
}

/**
 * The asked product, with a space, where the word GPU follows it: `--product "RTX 4070 Laptop GPU"` reads
 * `RTX 4070 Laptop GPUs`, not `RTX 4070 Laptop GPU GPUs`; empty for any product.
 */
function beforeGpu(product: string | null): string {
  if (product === null) return '';
  const stem = product.replace(/[\s_-]+GPUs?$/i, '');
  return stem === '' || stem === product ? `${product} ` : `${stem} `;
}

/** What the job asks for, with its count: `1 whole GPU (nvidia.com/gpu)`, `2 MIG 1g.5gb instances`. */
export function askText(request: FitRequest): string {
  const n = request.count;
  const product = request.product === null ? '' : `${request.product} `;
  const s = n === 1 ? '' : 's';
  switch (request.want.kind) {
    case 'whole':
      return `${n} whole ${beforeGpu(request.product)}GPU${s} (nvidia.com/gpu)`;
    case 'mig':
      return `${n} ${product}MIG ${request.want.profile} instance${s}`;
    case 'shared':
      return `${n} shared ${beforeGpu(request.product)}GPU replica${s}`;
    case 'resource':
      return `${n} × ${product}${request.want.resource}`;
  }
}

export function wantText(request: FitRequest): string {
  const product = request.product === null ? '' : `${request.product} `;
  switch (request.want.kind) {
    case 'whole':
      return `whole ${beforeGpu(request.product)}GPUs (nvidia.com/gpu)`;
    case 'mig':
      return `${product}MIG ${request.want.profile} instances`;
    case 'shared':
      return `shared ${beforeGpu(request.product)}GPU replicas`;
    case 'resource':
      return `${product}${request.want.resource}`;
  }
}
