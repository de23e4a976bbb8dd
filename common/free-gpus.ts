/**
 * Free GPUs of one cluster, as the engine computes them (main/inventory/free-gpus.ts) and the tray, the
 * window and `gpu-fleet free` show them: per node and GPU resource (capacity, allocatable, requested,
 * free = allocatable − requested), per product across the cluster's nodes, and the Pending GPU pods with
 * the scheduler's reason. Plain serializable data; snake_case like the inventory it sits beside.
 */

/**
 * What a slot is: a whole GPU (`nvidia.com/gpu`), a MIG instance (`nvidia.com/mig-<profile>` under the
 * mixed strategy, or `nvidia.com/gpu` under the single strategy, whose product label names the profile),
 * a time-sliced/MPS replica (`nvidia.com/gpu.shared`, or `nvidia.com/gpu` on a `-SHARED` product), or a
 * passthrough/vGPU device of the sandbox device plugin.
 */
export type SlotKind = 'whole' | 'mig' | 'shared' | 'device';

/** One GPU resource of one node. */
export interface SlotFree {
  resource: string;
  kind: SlotKind;
  /** The MIG profile (`1g.10gb`) for kind mig, else null. */
  profile: string | null;
  capacity: number;
  allocatable: number;
  /** The sum of the live pods' requests bound to the node (the scheduler's rule). */
  requested: number;
  /** allocatable − requested, never below 0. */
  free: number;
  /** The pods request more than allocatable (a device withdrawn under running pods): free shows 0. */
  overcommitted: boolean;
  /** For shared replicas: how many physical GPUs they share (the node's gpu.count label), when known. */
  physical: number | null;
}

/** A NoSchedule or NoExecute taint of a node (the only effects that keep a pod off). */
export interface BlockingTaint {
  key: string;
  value: string | null;
  effect: 'NoSchedule' | 'NoExecute';
}

export interface NodeFree {
  name: string;
  /** `nvidia.com/gpu.product`, null when unlabeled. */
  product: string | null;
  ready: boolean;
  cordoned: boolean;
  taints: BlockingTaint[];
  slots: SlotFree[];
}

/** One product (and slot kind) summed over a cluster's nodes. */
export interface ProductFree {
  /** Stable grouping key: product label, kind, profile (and the resource for devices). */
  key: string;
  /** How people read it: `A100 SXM4 40GB MIG 1g.5gb`, `RTX 4090 (shared)`. */
  label: string;
  product: string | null;
  kind: SlotKind;
  profile: string | null;
  nodes: number;
  capacity: number;
  allocatable: number;
  /** Requested by live pods on every node of the product; null when the pods are unknown. */
  in_use: number | null;
  /**
   * Free on the nodes a pod can be placed on now (Ready, not cordoned); taints depend on the pod. Null
   * when the pods are unknown (the cluster's state is then unknown): never 0, never all free.
   */
  free: number | null;
  /** The most free on one such node (a job needing more than this does not fit anywhere); null when unknown. */
  max_free_on_one_node: number | null;
  /**
   * Shared replicas only: how many physical GPUs they share (the nodes' gpu.count labels summed), null
   * when a node does not say. Absent for other kinds (and in the controller's summary).
   */
  physical?: number | null;
}

export interface PendingGpuPod {
  namespace: string;
  name: string;
  /** GPU resources it asks for, by resource name. */
  requests: Record<string, number>;
  /** The PodScheduled condition's reason (`Unschedulable`) and message, as the scheduler wrote them. */
  reason: string | null;
  message: string | null;
  /**
   * What the pod tolerates, as `kubectl describe pod` prints it (`dedicated=ml:NoSchedule`,
   * `node.kubernetes.io/not-ready:NoExecute op=Exists`), only where it explains the reason: when the
   * scheduler's message names an untolerated taint. Absent otherwise (and in older snapshots).
   */
  tolerations?: string[];
}

/** Why free GPUs of a cluster are not known. */
export type FreeUnknownReason = 'forbidden' | 'listing' | 'unreachable' | 'off' | 'error';

export interface ClusterFree {
  /** known: every figure counts every live pod; unknown: see `reason` (never shown as 0 or all free). */
  state: 'known' | 'unknown';
  reason: FreeUnknownReason | null;
  /** One sentence when unknown (English; the window words `reason` itself). */
  message: string | null;
  /**
   * Known, but from an earlier moment: the pods watch is reconnecting, or (source controller) the
   * controller's freshness mark is old.
   */
  stale: boolean;
  /**
   * `controller`: read from the in-cluster controller's GpuInventory status, which carries the figures
   * per product only (no nodes, no Pending pod names). Absent: the app's own pods watch.
   */
  source?: 'controller';
  /**
   * When unknown, from the nodes alone where they were read (`gpu-fleet free`): capacity, allocatable
   * and nodes, with in use and free unknown (null); otherwise empty.
   */
  products: ProductFree[];
  /**
   * Nodes with at least one GPU slot, by name; empty when unknown. In a fleet snapshot only the nodes
   * with free slots, at most SNAPSHOT_NODES_MAX (most free first), and `nodes_omitted` counts the rest.
   */
  nodes: NodeFree[];
  nodes_omitted?: number;
  /** Sum of free over products (what the tray's headline adds up); null when unknown. */
  free_total: number | null;
  /** Null when unknown (the pods could not be read: not "none Pending"). */
  pending: { count: number; pods: PendingGpuPod[] } | null;
  /** Nodes whose live pods request more than allocatable. */
  overcommitted: string[];
}

/** Nodes a fleet snapshot carries per cluster (the window's Capacity view lists nodes with free slots). */
export const SNAPSHOT_NODES_MAX = 100;

/** Pending pods listed per cluster (the count covers them all). */
export const PENDING_SHOWN = 20;

/** A product of a cluster whose figures are known: every count is a number. */
export type KnownProductFree = ProductFree & { in_use: number; free: number; max_free_on_one_node: number };

/** The products with their free counts, or none while the figures are unknown (never read as 0). */
export function knownProducts(free: ClusterFree): KnownProductFree[] {
  if (free.state !== 'known') return [];
  return free.products.filter(
    (p): p is KnownProductFree => p.free !== null && p.in_use !== null && p.max_free_on_one_node !== null,
  );
}
