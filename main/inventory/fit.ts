/**
 * Can a job with N GPUs run in this cluster now, and where; if not, why not, in the order a user fixes
 * things (pure): no node offers the product or slot kind; enough free in total but not on one node
 * (fragmentation, with the free per node); the nodes with enough free are cordoned, tainted (which taint,
 * against the job's tolerations) or NotReady; not enough free anywhere; and, when the pods cannot be read,
 * free GPUs unknown (the node reasons are then judged on allocatable, and nothing is said to fit).
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
  free: number;
}

export type FitReason =
  | { kind: 'no-product' }
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
  if (cands.length === 0) return { fits: [], reasons: [{ kind: 'no-product' }] };
  const blockers = (node: NodeFree): BlockingTaint[] =>
    untolerated(node.taints, request.tolerations).filter((t) => !LIFECYCLE_TAINTS.has(t.key));
  const usable = cands.filter(
    (c) => c.node.ready && !c.node.cordoned && untolerated(c.node.taints, request.tolerations).length === 0,
  );
  const byFree = (a: NodeCount, b: NodeCount) => b.free - a.free || (a.node < b.node ? -1 : 1);
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
    free: c.slot.free,
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
  const enough = cands.filter((c) => c.slot.free >= n);
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
  const list = (nodes: readonly NodeCount[]) => nodes.map((x) => `${x.node} ${x.free}`).join(', ');
  switch (r.kind) {
    case 'no-product':
      return `no node offers ${wantText(request)}`;
    case 'fragmented':
      return `${r.total} free in total but not ${request.count} on one node (free per node: ${list(r.nodes)})`;
    case 'cordoned':
      return `cordoned: ${list(r.nodes)}`;
    case 'tainted': {
      // What the job tolerates explains why these taints keep it off.
      const tolerated = request.tolerations.map(tolerationText);
      const job =
        tolerated.length === 0 ? 'the job tolerates none' : `the job tolerates ${tolerated.join(', ')}`;
      return `tainted: ${r.nodes.map((x) => `${x.node} ${x.free} (${x.taints.join(', ')})`).join('; ')}; ${job}`;
    }
    case 'not-ready':
      return `NotReady: ${list(r.nodes)}`;
    case 'insufficient':
      return `not enough free: at most ${r.most} on one usable node, ${request.count} needed`;
    case 'pods-unknown':
      return r.message;
  }
}

export function wantText(request: FitRequest): string {
  const product = request.product === null ? '' : `${request.product} `;
  switch (request.want.kind) {
    case 'whole':
      return `whole ${product}GPUs (nvidia.com/gpu)`;
    case 'mig':
      return `${product}MIG ${request.want.profile} instances`;
    case 'shared':
      return `shared ${product}GPU replicas`;
    case 'resource':
      return `${product}${request.want.resource}`;
  }
}
