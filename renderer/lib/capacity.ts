/**
 * Pure: the Capacity view's rows from the fleet snapshot: per product label across every cluster with
 * known figures, the totals (capacity, allocatable, in use, free) and per cluster the nodes that have free
 * slots (the MIG profile or resource named); the clusters whose figures are unknown (never counted as 0);
 * and the Pending GPU pods with the scheduler's reason. Clusters where free GPUs are off are left out.
 * Figures read from the in-cluster controller are said to be its (they have no per-node detail). A row
 * carries its product's facts (product, kind, profile), so the view words it in the window's language
 * (common/free-product-text.ts); `label` is the English one, the key the CLI's -o json prints.
 * A cluster whose pods cannot be read still adds its nodes' capacity and allocatable to a row, with its
 * in use and free unknown (`unknownIn`), never counted as 0.
 */
import type { ContextSnapshot } from '../../common/fleet.ts';
import {
  type FreeUnknownReason,
  knownProducts,
  type PendingGpuPod,
  type ProductFree,
  type SlotKind,
} from '../../common/free-gpus.ts';

export interface CapacityNode {
  context: string;
  node: string;
  resource: string;
  free: number;
  usable: boolean;
}

export interface CapacityRow {
  label: string;
  product: string | null;
  kind: SlotKind;
  profile: string | null;
  capacity: number;
  allocatable: number;
  /** Over the clusters whose figures are known; null when none of this row's clusters is. */
  inUse: number | null;
  free: number | null;
  /** Shared replicas: the physical GPUs they share, where every cluster's nodes say (else null). */
  physical: number | null;
  clusters: string[];
  /** Clusters offering this product whose free GPUs are unknown (their in use and free are not in the sums). */
  unknownIn: string[];
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
      // The nodes still tell what the cluster offers: capacity and allocatable, free unknown.
      for (const p of f.products) {
        const row = rowOf(rows, p);
        row.capacity += p.capacity;
        row.allocatable += p.allocatable;
        addPhysical(row, p.physical);
        if (!row.clusters.includes(ctx.context)) row.clusters.push(ctx.context);
        if (!row.unknownIn.includes(ctx.context)) row.unknownIn.push(ctx.context);
      }
      continue;
    }
    if (f.stale)
      out.stale.push({ context: ctx.context, why: f.source === 'controller' ? 'controller' : 'pods' });
    if (f.source === 'controller') out.fromController.push(ctx.context);
    out.freeTotal += f.free_total ?? 0;
    out.pendingCount += f.pending?.count ?? 0;
    out.pending.push(...(f.pending?.pods ?? []).map((pod) => ({ context: ctx.context, pod })));
    for (const p of knownProducts(f)) {
      const row = rowOf(rows, p);
      row.capacity += p.capacity;
      row.allocatable += p.allocatable;
      row.inUse = (row.inUse ?? 0) + p.in_use;
      row.free = (row.free ?? 0) + p.free;
      addPhysical(row, p.physical);
      if (!row.clusters.includes(ctx.context)) row.clusters.push(ctx.context);
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
  out.rows = [...rows.values()].sort(
    (a, b) => (b.free ?? -1) - (a.free ?? -1) || (a.label < b.label ? -1 : 1),
  );
  return out;
}

function rowOf(rows: Map<string, CapacityRow>, p: ProductFree): CapacityRow {
  let row = rows.get(p.label);
  if (row === undefined) {
    row = {
      label: p.label,
      product: p.product,
      kind: p.kind,
      profile: p.profile,
      capacity: 0,
      allocatable: 0,
      inUse: null,
      free: null,
      physical: p.kind === 'shared' ? 0 : null,
      clusters: [],
      unknownIn: [],
      nodes: [],
    };
    rows.set(p.label, row);
  }
  return row;
}

/** Physical GPUs behind shared replicas: summed while every cluster says (the controller's summary does not). */
function addPhysical(row: CapacityRow, physical: number | null | undefined): void {
  if (row.kind !== 'shared' || row.physical === null) return;
  row.physical = physical === undefined || physical === null ? null : row.physical + physical;
}
