/**
 * Free GPUs of one cluster from its trimmed nodes and GPU pods (pure): per node and GPU resource,
 * requested = the sum of the effective requests of the live pods bound to the node (phase neither
 * Succeeded nor Failed) and free = allocatable − requested, never below 0 (overcommitted data is flagged,
 * not shown as negative); per product, the sums and the free on nodes a pod can be placed on now (Ready,
 * not cordoned); and the Pending pods the scheduler could not place, with its reason.
 *
 * When the pods cannot be read the figures are unknown (unknownFree): never 0, never "all free".
 */
import {
  type ClusterFree,
  type FreeUnknownReason,
  type NodeFree,
  PENDING_SHOWN,
  type PendingGpuPod,
  type ProductFree,
  type SlotFree,
  SNAPSHOT_NODES_MAX,
} from '../../common/free-gpus.ts';
import { type PodTally, tallyOf } from './free-tally.ts';
import { type GpuPod, podKey } from './gpu-pod.ts';
import type { NodeFacts } from './node-facts.ts';
import { type NodeSlot, nodeSlots, productKey, productLabel } from './node-slots.ts';
import { blockingTaints, namesUntoleratedTaint, tolerationText } from './tolerations.ts';

/** From the pods at once (the CLI, tests): the same figures the engine keeps up pod by pod (FreeTally). */
export function clusterFree(nodes: Iterable<NodeFacts>, pods: Iterable<GpuPod>): ClusterFree {
  return freeFromTally(nodes, tallyOf(pods));
}

/**
 * The figures from the nodes and the pods' tally: O(nodes + slots), whatever the number of pods (the
 * per-node sums are kept as pods change); the Pending pods shown are picked in one pass, not sorted.
 */
export function freeFromTally(nodes: Iterable<NodeFacts>, tally: PodTally): ClusterFree {
  const out: NodeFree[] = [];
  const overcommitted: string[] = [];
  for (const facts of nodes) {
    const node = nodeFree(facts, tally);
    if (node === null) continue;
    if (node.slots.some((s) => s.overcommitted)) overcommitted.push(facts.name);
    out.push(node);
  }
  out.sort(byName);
  overcommitted.sort();
  const products = byProduct(out);
  return {
    state: 'known',
    reason: null,
    message: null,
    stale: false,
    products,
    nodes: out,
    free_total: products.reduce((sum, p) => sum + p.free, 0),
    pending: { count: tally.pending.size, pods: shownPending(tally.pending.values()) },
    overcommitted,
  };
}

/** One node's figures; null for a node without GPU slots. */
function nodeFree(facts: NodeFacts, tally: PodTally): NodeFree | null {
  const { product, slots } = nodeSlots(facts);
  if (slots.length === 0) return null;
  const asked = tally.requestedOn(facts.name);
  return {
    name: facts.name,
    product,
    ready: facts.ready.status === 'True',
    cordoned: facts.unschedulable,
    taints: blockingTaints(facts.taints),
    slots: slots.map((s) => {
      const req = asked?.[s.resource] ?? 0;
      return {
        ...s,
        requested: req,
        free: Math.max(0, s.allocatable - req),
        overcommitted: req > s.allocatable,
      };
    }),
  };
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * forSnapshot(freeFromTally(nodes, tally)), the same figures, in one pass that makes the per-node figures
 * only for the nodes the snapshot shows (at most SNAPSHOT_NODES_MAX): the engine builds these on every
 * pod change, and at 5,000 nodes a figures object per node per build (then dropped) held the event loop
 * tens of ms. The products and totals are summed per slot as freeFromTally's are.
 */
export function snapshotFree(nodes: Iterable<NodeFacts>, tally: PodTally): ClusterFree {
  const groups = new Map<string, { p: ProductFree; first: string }>();
  const overcommitted: string[] = [];
  /** The nodes shown if not all are: most free first, then by name; at most SNAPSHOT_NODES_MAX. */
  const top: { most: number; facts: NodeFacts }[] = [];
  /** Every node with slots while there are at most SNAPSHOT_NODES_MAX (then all may be shown). */
  const few: NodeFacts[] = [];
  let total = 0;
  let withFree = 0;
  for (const facts of nodes) {
    const { product, slots } = nodeSlots(facts);
    if (slots.length === 0) continue;
    total++;
    if (few.length < SNAPSHOT_NODES_MAX) few.push(facts);
    const asked = tally.requestedOn(facts.name);
    const usable = facts.ready.status === 'True' && !facts.unschedulable;
    let over = false;
    let most = 0;
    for (const s of slots) {
      const req = asked?.[s.resource] ?? 0;
      const free = Math.max(0, s.allocatable - req);
      if (req > s.allocatable) over = true;
      if (free > most) most = free;
      addToProduct(groups, facts.name, product, s, req, usable ? free : null, slotProduct(product, s));
    }
    if (over) overcommitted.push(facts.name);
    if (most === 0) continue;
    withFree++;
    keepTop(top, most, facts);
  }
  const all = withFree === total && total <= SNAPSHOT_NODES_MAX;
  const shown = (all ? few : top.map((t) => t.facts))
    .map((f) => nodeFree(f, tally))
    .filter((n): n is NodeFree => n !== null)
    .sort(byName);
  overcommitted.sort();
  const products = sortProducts([...groups.values()].map((g) => g.p));
  return {
    state: 'known',
    reason: null,
    message: null,
    stale: false,
    products,
    nodes: shown,
    ...(all ? {} : { nodes_omitted: total - shown.length }),
    free_total: products.reduce((sum, p) => sum + p.free, 0),
    pending: { count: tally.pending.size, pods: shownPending(tally.pending.values()) },
    overcommitted,
  };
}

/** Inserts a node into the sorted top list (most free first, then by name), kept at SNAPSHOT_NODES_MAX. */
function keepTop(top: { most: number; facts: NodeFacts }[], most: number, facts: NodeFacts): void {
  const before = (a: { most: number; facts: NodeFacts }) =>
    a.most > most || (a.most === most && a.facts.name < facts.name);
  const last = top.at(-1);
  if (top.length >= SNAPSHOT_NODES_MAX && last !== undefined && before(last)) return;
  let i = top.length;
  while (i > 0 && !before(top[i - 1] as { most: number; facts: NodeFacts })) i--;
  top.splice(i, 0, { most, facts });
  if (top.length > SNAPSHOT_NODES_MAX) top.pop();
}

/** The first PENDING_SHOWN Pending pods by namespace/name, kept sorted as they are met (no full sort). */
function shownPending(pods: Iterable<GpuPod>): PendingGpuPod[] {
  const first: { order: string; pod: GpuPod }[] = [];
  for (const pod of pods) {
    const order = podKey(pod);
    if (first.length === PENDING_SHOWN && order >= (first.at(-1)?.order ?? '')) continue;
    let i = first.length;
    while (i > 0 && (first[i - 1]?.order ?? '') > order) i--;
    first.splice(i, 0, { order, pod });
    if (first.length > PENDING_SHOWN) first.pop();
  }
  return first.map(({ pod }) =>
    withTolerations(
      {
        namespace: pod.namespace,
        name: pod.name,
        requests: { ...pod.requests },
        reason: pod.unscheduled?.reason ?? null,
        message: pod.unscheduled?.message ?? null,
      },
      pod,
    ),
  );
}

/** What a shown Pending pod tolerates, where it explains an untolerated taint (elsewhere it is noise). */
function withTolerations(p: PendingGpuPod, pod: GpuPod): PendingGpuPod {
  if (!namesUntoleratedTaint(p.message)) return p;
  return { ...p, tolerations: (pod.tolerations ?? []).map(tolerationText) };
}

/** A node a new pod can be placed on now, taints aside (they depend on the pod). */
export function isUsable(node: Pick<NodeFree, 'ready' | 'cordoned'>): boolean {
  return node.ready && !node.cordoned;
}

/** Product key and label per (product, slot kind): a few distinct ones per cluster, so a bounded memo. */
const PRODUCT_MEMO_MAX = 512;
const productMemo = new Map<string, { key: string; label: string }>();

/**
 * The product of a node's own slot (nodeSlots' memoized object, whose node's product never changes):
 * looked up by the slot, not by a string made per slot per build.
 */
const slotProducts = new WeakMap<NodeSlot, { key: string; label: string }>();

function slotProduct(product: string | null, slot: NodeSlot): { key: string; label: string } {
  let hit = slotProducts.get(slot);
  if (hit === undefined) {
    hit = productOf(product, slot);
    slotProducts.set(slot, hit);
  }
  return hit;
}

function productOf(
  product: string | null,
  slot: Pick<SlotFree, 'resource' | 'kind' | 'profile'>,
): { key: string; label: string } {
  const id = `${product ?? '\u0000'}\u0000${slot.kind}\u0000${slot.profile ?? ''}\u0000${slot.resource}`;
  let hit = productMemo.get(id);
  if (hit === undefined) {
    if (productMemo.size >= PRODUCT_MEMO_MAX) productMemo.clear();
    hit = { key: productKey(product, slot), label: productLabel(product, slot) };
    productMemo.set(id, hit);
  }
  return hit;
}

function byProduct(nodes: readonly NodeFree[]): ProductFree[] {
  const groups = new Map<string, { p: ProductFree; first: string }>();
  for (const node of nodes) {
    const usable = isUsable(node);
    for (const slot of node.slots)
      addToProduct(groups, node.name, node.product, slot, slot.requested, usable ? slot.free : null);
  }
  return sortProducts([...groups.values()].map((g) => g.p));
}

/**
 * Adds one slot of node `name` to its product's sums; `free` null: the node is not usable now (its free
 * is not counted). A product's `product` is that of its first node by name, whatever order nodes come in.
 */
function addToProduct(
  groups: Map<string, { p: ProductFree; first: string }>,
  name: string,
  product: string | null,
  slot: Pick<SlotFree, 'resource' | 'kind' | 'profile' | 'capacity' | 'allocatable'>,
  requested: number,
  free: number | null,
  known?: { key: string; label: string },
): void {
  const { key, label } = known ?? productOf(product, slot);
  let entry = groups.get(key);
  if (entry === undefined) {
    const p: ProductFree = {
      key,
      label,
      product,
      kind: slot.kind,
      profile: slot.profile,
      nodes: 0,
      capacity: 0,
      allocatable: 0,
      in_use: 0,
      free: 0,
      max_free_on_one_node: 0,
    };
    entry = { p, first: name };
    groups.set(key, entry);
  }
  const g = entry.p;
  if (name < entry.first) {
    g.product = product;
    entry.first = name;
  }
  g.nodes++;
  g.capacity += slot.capacity;
  g.allocatable += slot.allocatable;
  g.in_use += requested;
  if (free !== null) {
    g.free += free;
    g.max_free_on_one_node = Math.max(g.max_free_on_one_node, free);
  }
}

/** Most free first, then by label, then by key (so the order never depends on the nodes' order). */
function sortProducts(products: ProductFree[]): ProductFree[] {
  return products.sort(
    (a, b) =>
      b.free - a.free ||
      (a.label < b.label ? -1 : a.label > b.label ? 1 : 0) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

const UNKNOWN_WORDS: Record<FreeUnknownReason, string> = {
  forbidden: 'free GPUs unknown: pods are forbidden',
  listing: 'free GPUs unknown: the pods are still being listed',
  unreachable: 'free GPUs unknown: the pods could not be read',
  off: 'free GPUs are off for this cluster',
  error: 'free GPUs unknown: the pods could not be read',
};

/** Free GPUs that cannot be told, and the one sentence why (English; `detail` is the server's words). */
export function unknownFree(reason: FreeUnknownReason, detail: string | null = null): ClusterFree {
  const base = UNKNOWN_WORDS[reason];
  return {
    state: 'unknown',
    reason,
    message:
      detail !== null && detail !== '' && reason !== 'off' && reason !== 'listing'
        ? `${base} (${detail})`
        : base,
    stale: false,
    products: [],
    nodes: [],
    free_total: null,
    pending: { count: 0, pods: [] },
    overcommitted: [],
  };
}

/**
 * The figures as a fleet snapshot carries them: only the nodes with a free slot, at most
 * SNAPSHOT_NODES_MAX of them (most free first), the rest counted; so a 5,000-node cluster's snapshot
 * (and the delta a change sends to a window) stays small. The CLI reads the figures whole.
 */
export function forSnapshot(free: ClusterFree): ClusterFree {
  if (free.state !== 'known') return free;
  const withFree = free.nodes.filter((n) => n.slots.some((s) => s.free > 0));
  if (withFree.length === free.nodes.length && withFree.length <= SNAPSHOT_NODES_MAX) return free;
  const most = (n: NodeFree) => n.slots.reduce((m, s) => Math.max(m, s.free), 0);
  const kept = [...withFree]
    .sort((a, b) => most(b) - most(a) || (a.name < b.name ? -1 : 1))
    .slice(0, SNAPSHOT_NODES_MAX)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  return { ...free, nodes: kept, nodes_omitted: free.nodes.length - kept.length };
}
