/**
 * Pure: the Capacity view's rows from the fleet snapshot: per product label across every cluster with
 * known figures, the totals (capacity, allocatable, in use, free) and per cluster the nodes that have free
 * slots (the MIG profile or resource named); the clusters whose figures are unknown (never counted as 0);
 * and the Pending GPU pods with the scheduler's reason. Clusters where free GPUs are off are left out.
 * Figures read from the in-cluster controller are said to be its (they have no per-node detail).
 */
import type { ContextSnapshot } from '../../common/fleet.ts';
import type { FreeUnknownReason, PendingGpuPod } from '../../common/free-gpus.ts';

export interface CapacityNode {
  context: string;
  node: string;
  resource: string;
  free: number;
  usable: boolean;
}

export interface CapacityRow {
  label: string;
  capacity: number;
  allocatable: number;
  inUse: number;
  free: number;
  clusters: string[];
  /** Nodes with at least one free slot of this product. */
  nodes: CapacityNode[];
}

export interface Capacity {
  rows: CapacityRow[];
  freeTotal: number;
  unknown: { context: string; reason: FreeUnknownReason }[];
  /** Clusters whose figures are last known: the pods watch reconnecting (`pods`) or the controller's mark old. */
  stale: { context: string; why: 'pods' | 'controller' }[];
  /** Clusters whose figures come from the in-cluster controller: per product only, no per-node detail. */
  fromController: string[];
  pending: { context: string; pod: PendingGpuPod }[];
  pendingCount: number;
}

export function capacityOf(contexts: readonly ContextSnapshot[]): Capacity {
  const rows = new Map<string, CapacityRow>();
  const out: Capacity = {
    rows: [],
    freeTotal: 0,
    unknown: [],
    stale: [],
    fromController: [],
    pending: [],
    pendingCount: 0,
  };
  for (const ctx of contexts) {
    const f = ctx.free;
    if (f === undefined || f.reason === 'off') continue;
    if (f.state !== 'known') {
      out.unknown.push({ context: ctx.context, reason: f.reason ?? 'listing' });
      continue;
    }
    if (f.stale)
      out.stale.push({ context: ctx.context, why: f.source === 'controller' ? 'controller' : 'pods' });
    if (f.source === 'controller') out.fromController.push(ctx.context);
    out.freeTotal += f.free_total ?? 0;
    out.pendingCount += f.pending.count;
    out.pending.push(...f.pending.pods.map((pod) => ({ context: ctx.context, pod })));
    for (const p of f.products) {
      const row = rows.get(p.label) ?? {
        label: p.label,
        capacity: 0,
        allocatable: 0,
        inUse: 0,
        free: 0,
        clusters: [],
        nodes: [],
      };
      row.capacity += p.capacity;
      row.allocatable += p.allocatable;
      row.inUse += p.in_use;
      row.free += p.free;
      if (!row.clusters.includes(ctx.context)) row.clusters.push(ctx.context);
      rows.set(p.label, row);
    }
    for (const node of f.nodes)
      for (const s of node.slots) {
        if (s.free === 0) continue;
        const product = f.products.find(
          (p) => p.kind === s.kind && p.profile === s.profile && p.product === node.product,
        );
        const row = product ? rows.get(product.label) : undefined;
        row?.nodes.push({
          context: ctx.context,
          node: node.name,
          resource: s.resource,
          free: s.free,
          usable: node.ready && !node.cordoned,
        });
      }
  }
  out.rows = [...rows.values()].sort((a, b) => b.free - a.free || (a.label < b.label ? -1 : 1));
  return out;
}
