/**
 * Free GPUs in a GpuInventory status (pure): the controller writes the per-product summary of its
 * figures (freeSummary), and a tray reading the controller turns it back into figures it can show
 * (freeFromSummary: per product, without nodes or Pending pod names, which the status does not carry).
 */
import {
  type ClusterFree,
  type FreeUnknownReason,
  knownProducts,
  type SlotKind,
} from '../../common/free-gpus.ts';
import type { FreeGpusSummary } from '../../common/inventory.ts';
import { unknownFree } from './free-gpus.ts';

export function freeSummary(free: ClusterFree): FreeGpusSummary {
  return {
    state: free.state,
    reason: free.reason,
    free_total: free.free_total,
    products: knownProducts(free)
      .slice(0, 64)
      .map((p) => ({
        label: p.label,
        product: p.product,
        kind: p.kind,
        profile: p.profile,
        nodes: p.nodes,
        capacity: p.capacity,
        allocatable: p.allocatable,
        in_use: p.in_use,
        free: p.free,
        max_free_on_one_node: p.max_free_on_one_node,
      })),
    pending: free.pending?.count ?? 0,
  };
}

const KINDS: ReadonlySet<string> = new Set(['whole', 'mig', 'shared', 'device']);
const REASONS: ReadonlySet<string> = new Set(['forbidden', 'listing', 'unreachable', 'off', 'error']);

export function freeFromSummary(s: FreeGpusSummary): ClusterFree {
  if (s.state !== 'known')
    return {
      ...unknownFree(REASONS.has(s.reason ?? '') ? (s.reason as FreeUnknownReason) : 'error'),
      source: 'controller',
    };
  const products = s.products.map((p) => ({
    key: `${p.product ?? ''}|${p.kind}|${p.profile ?? ''}|${p.label}`,
    label: p.label,
    product: p.product,
    kind: (KINDS.has(p.kind) ? p.kind : 'device') as SlotKind,
    profile: p.profile,
    nodes: p.nodes,
    capacity: p.capacity,
    allocatable: p.allocatable,
    in_use: p.in_use,
    free: p.free,
    max_free_on_one_node: p.max_free_on_one_node,
  }));
  return {
    state: 'known',
    reason: null,
    message: null,
    stale: false,
    products,
    nodes: [],
    free_total: s.free_total ?? products.reduce((sum, p) => sum + p.free, 0),
    pending: { count: s.pending, pods: [] },
    overcommitted: [],
    source: 'controller',
  };
}
