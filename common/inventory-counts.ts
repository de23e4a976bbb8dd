/**
 * How many GPU nodes of an inventory carry no GPU labels (product and count gone, as when a node died and
 * its labelling agents stopped): their GPUs are not in `total_gpus`, and every surface that shows that
 * total says so ("1 GPU labelled · 3 nodes unlabeled"). Pure.
 */
import type { GpuInventoryStatus } from './inventory.ts';

export function unlabeledGpuNodes(inv: Pick<GpuInventoryStatus, 'nodes'>): number {
  return inv.nodes.filter((n) => n.product === null && n.count === 0).length;
}

/** The names of the GPU nodes without a product label, in inventory order (telemetry may name their model). */
export function* productlessNodes(inv: Pick<GpuInventoryStatus, 'nodes'> | null): Generator<string> {
  for (const n of inv?.nodes ?? []) if (n.product === null) yield n.name;
}
