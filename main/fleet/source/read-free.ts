/**
 * Reads the `free_gpus` summary of the controller's GpuInventory status as hostile input (as
 * read-status.ts reads the rest): integers checked and capped, texts through the text gate, at most 64
 * products. Absent (an older controller) is undefined; present but not valid reads as unknown ("the pods
 * could not be read"), never as 0 free. Write-back leaves nulls out of its apply, so absent reads as null.
 */
import { clusterText } from '../../../common/cluster-text.ts';
import type { FreeGpuProduct, FreeGpusSummary } from '../../../common/inventory.ts';
import { isObj } from '../../../common/json-guards.ts';

const MAX = 1_000_000;
const MAX_PRODUCTS = 64;
const INVALID: FreeGpusSummary = {
  state: 'unknown',
  reason: 'error',
  free_total: null,
  products: [],
  pending: 0,
};

const int = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX ? v : null;
const textOrNull = (v: unknown, max: number): string | null =>
  typeof v === 'string' ? clusterText(v, max) || null : null;

export function readFreeSummary(raw: unknown): FreeGpusSummary | undefined {
  if (raw === undefined) return undefined;
  if (!isObj(raw) || (raw.state !== 'known' && raw.state !== 'unknown')) return INVALID;
  const pending = raw.pending === undefined ? 0 : int(raw.pending);
  if (pending === null || !Array.isArray(raw.products) || raw.products.length > MAX_PRODUCTS) return INVALID;
  if (raw.state === 'unknown')
    return {
      state: 'unknown',
      reason: textOrNull(raw.reason, 32) ?? 'error',
      free_total: null,
      products: [],
      pending,
    };
  const products: FreeGpuProduct[] = [];
  for (const p of raw.products) {
    const read = readProduct(p);
    if (read === null) return INVALID;
    products.push(read);
  }
  const total = int(raw.free_total);
  if (total === null || total !== products.reduce((s, p) => s + p.free, 0)) return INVALID;
  return { state: 'known', reason: null, free_total: total, products, pending };
}

function readProduct(p: unknown): FreeGpuProduct | null {
  if (!isObj(p)) return null;
  const label = textOrNull(p.label, 120);
  const kind = p.kind;
  const nums = [p.nodes, p.capacity, p.allocatable, p.in_use, p.free, p.max_free_on_one_node].map(int);
  const [nodes, capacity, allocatable, inUse, free, maxOne] = nums;
  if (
    label === null ||
    (kind !== 'whole' && kind !== 'mig' && kind !== 'shared' && kind !== 'device') ||
    nodes == null ||
    capacity == null ||
    allocatable == null ||
    inUse == null ||
    free == null ||
    maxOne == null ||
    free > allocatable ||
    maxOne > free
  )
    return null;
  return {
    label,
    product: textOrNull(p.product, 128),
    kind,
    profile: textOrNull(p.profile, 32),
    nodes,
    capacity,
    allocatable,
    in_use: inUse,
    free,
    max_free_on_one_node: maxOne,
  };
}
