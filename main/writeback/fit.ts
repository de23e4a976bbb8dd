/**
 * Making the node list of a write fit the API server's size limits (shared/real-api/13): a ConfigMap
 * holds at most 1 MiB of data, and etcd refuses an object of more than about 1.5 MiB. At 5,000 nodes
 * (3,750 GPU nodes) the full entries are ~1.05 MB in the ConfigMap and ~1.24 MB in the status.
 *
 * Three steps, each taken only when the one before does not fit the budget:
 * 1. every entry in full;
 * 2. every entry COMPACT: only the six fields of SPEC.md (name, ready, product, count, memory, workload),
 *    marked `nodes_compacted: true`;
 * 3. compact entries of as many nodes as fit, NotReady nodes first (the ones a reader looks for), then
 *    by name; `nodes_omitted` says how many GPU nodes are counted in the totals but not listed.
 * The totals (total_gpu_nodes, ready_gpu_nodes, total_gpus) always count every GPU node.
 *
 * Readers at scale (the in-cluster controller, CONTROLLER_FIT_LIMITS): above `listReadyUpTo` GPU nodes
 * the list holds only the NotReady nodes, compact, within the same budget; every Ready node is counted in
 * `nodes_omitted`. A flip then rewrites a few entries, not thousands, and a reader that sees every
 * NotReady node listed (listed NotReady = total − ready) knows every omitted node is Ready.
 *
 * Pure: the callers say what an entry costs in their object.
 */
import type { GpuNodeEntry } from '../../common/inventory.ts';

export interface FitLimits {
  /** Most bytes of GpuInventory status JSON written (etcd's 1572864 minus room for metadata and others). */
  statusBytes: number;
  /** Most bytes of ConfigMap data values we write (the 1048576 limit counts every key's value). */
  configMapBytes: number;
  /** Above this many GPU nodes the status lists only NotReady nodes (the ConfigMap is not affected). */
  listReadyUpTo?: number;
  /**
   * Above `listReadyUpTo` GPU nodes, the least time between two status writes (ms). At 5,000 nodes
   * some nodes are always flipping, so every coalescing window would carry a write every reader
   * receives whole; a longer window bounds what each tray receives. Unset: the writer's own interval.
   */
  scaleMinIntervalMs?: number;
}

export const DEFAULT_FIT_LIMITS: FitLimits = { statusBytes: 1_000_000, configMapBytes: 983_040 };

/** GPU node count above which the controller's status lists only NotReady nodes (SPEC: "one small object"). */
export const SCALE_GPU_NODES = 1000;

/** The controller's least time between status writes above SCALE_GPU_NODES. */
export const SCALE_MIN_INTERVAL_MS = 30_000;

/** The in-cluster controller's limits: today's budgets, and NotReady-only lists above SCALE_GPU_NODES. */
export const CONTROLLER_FIT_LIMITS: FitLimits = Object.freeze({
  ...DEFAULT_FIT_LIMITS,
  listReadyUpTo: SCALE_GPU_NODES,
  scaleMinIntervalMs: SCALE_MIN_INTERVAL_MS,
});

/** The least time between status writes for `gpuNodes` GPU nodes: `baseMs`, or the scale interval above the threshold. */
export function statusIntervalMs(gpuNodes: number, baseMs: number, limits: FitLimits): number {
  const { listReadyUpTo, scaleMinIntervalMs } = limits;
  if (listReadyUpTo === undefined || scaleMinIntervalMs === undefined || gpuNodes <= listReadyUpTo)
    return baseMs;
  return Math.max(baseMs, scaleMinIntervalMs);
}

export interface Fitted {
  nodes: GpuNodeEntry[];
  compacted: boolean;
  omitted: number;
}

export function compactEntry(n: GpuNodeEntry): GpuNodeEntry {
  return {
    name: n.name,
    ready: n.ready,
    product: n.product,
    count: n.count,
    memory: n.memory,
    workload: n.workload,
  };
}

/**
 * The entries to write so that the sum of `cost` stays within `budget` bytes; with `listReadyUpTo`
 * and more nodes than that, Ready nodes are never listed.
 */
export function fitNodes(
  nodes: readonly GpuNodeEntry[],
  budget: number,
  cost: (n: GpuNodeEntry) => number,
  listReadyUpTo = Number.POSITIVE_INFINITY,
): Fitted {
  const sum = (list: readonly GpuNodeEntry[]) => list.reduce((s, n) => s + cost(n), 0);
  const notReadyOnly = nodes.length > listReadyUpTo;
  if (!notReadyOnly && sum(nodes) <= budget) return { nodes: [...nodes], compacted: false, omitted: 0 };
  // NotReady-only: the Ready entries are never listed, so they are never compacted either.
  const compact = (notReadyOnly ? nodes.filter((n) => !n.ready) : nodes).map(compactEntry);
  if (!notReadyOnly && sum(compact) <= budget) return { nodes: compact, compacted: true, omitted: 0 };
  const order = compact
    .map((n, i) => ({ n, i }))
    .sort((a, b) => Number(a.n.ready) - Number(b.n.ready) || (a.n.name < b.n.name ? -1 : 1));
  const kept = new Set<number>();
  let used = 0;
  for (const { n, i } of order) {
    const c = cost(n);
    if (used + c > budget) break;
    used += c;
    kept.add(i);
  }
  return {
    nodes: compact.filter((_n, i) => kept.has(i)),
    compacted: true,
    omitted: nodes.length - kept.size,
  };
}
