/**
 * `gpu-fleet scan -o table|wide`: SPEC.md's example as a kubectl-style table. The text is returned
 * without a trailing newline (callers print it with console.log).
 */
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import { entryReason, readyWord } from '../../common/node-reason.ts';
import { shortProduct } from '../../common/product-name.ts';
import { describe } from './derive-mig.ts';
import { alignColumns } from './text-table.ts';

const NONE = '<none>';

/** The CLI and the window share one product-name rule (common/product-name.ts). */
export { shortProduct };

/**
 * @param models what the DCGM exporters name for nodes whose product label is gone (node → model), shown
 *   as "RTX 4070 SUPER (from telemetry)" in place of `<unlabeled>`.
 */
export function formatInventoryTable(
  inv: GpuInventoryStatus,
  wide: boolean,
  models: ReadonlyMap<string, string> = new Map(),
): string {
  const header =
    `total_gpu_nodes: ${inv.total_gpu_nodes}   ready_gpu_nodes: ${inv.ready_gpu_nodes}` +
    `   total_gpus: ${inv.total_gpus}`;
  if (inv.nodes.length === 0) return `${header}\nNo GPU nodes found.`;
  const columns = ['NAME', 'READY', 'PRODUCT', 'GPUS', 'MEMORY', 'WORKLOAD'];
  if (wide)
    columns.push('READINESS', 'REASON', 'SINCE', 'CORDONED', 'ALLOC/CAP', 'MIG', 'SHARING', 'PROBLEMS');
  const rows = inv.nodes.map((e) => {
    const basic = basicCells(e, models.get(e.name) ?? null);
    return wide ? [...basic, ...wideCells(e)] : basic;
  });
  return [header, ...alignColumns([columns, ...rows])].join('\n');
}

function basicCells(e: GpuNodeEntry, model: string | null): string[] {
  return [
    e.name,
    readyWord(e),
    productCell(e, model),
    String(e.count),
    e.memory === null ? NONE : `${e.memory}Mi`,
    e.workload ?? NONE,
  ];
}

function productCell(e: GpuNodeEntry, model: string | null): string {
  if (e.product !== null) return e.product;
  const now = model === null ? '<unlabeled>' : `${shortProduct(model)} (from telemetry)`;
  const seen = e.last_seen;
  if (seen === null || seen === undefined) return now;
  const what = seen.product === null ? 'GPU' : shortProduct(seen.product);
  return `${now} (last seen: ${what} ×${seen.count})`;
}

function wideCells(e: GpuNodeEntry): string[] {
  const cap = e.capacity_gpus ?? null;
  const alloc = e.allocatable_gpus ?? null;
  return [
    e.readiness ?? (e.ready ? 'True' : 'Unknown'),
    e.ready ? NONE : reasonCell(e),
    e.not_ready_since ?? NONE,
    String(e.cordoned ?? false),
    cap === null ? NONE : `${alloc ?? 0}/${cap}`,
    migCell(e),
    sharingCell(e),
    e.problems === undefined || e.problems.length === 0 ? NONE : e.problems.join('; '),
  ];
}

/** Why the node is not Ready, in the words every surface uses (common/node-reason.ts). */
function reasonCell(e: GpuNodeEntry): string {
  const why = entryReason(e);
  return why === '' ? NONE : why;
}

function migCell(e: GpuNodeEntry): string {
  const mig = e.mig;
  if (mig === null || mig === undefined) return NONE;
  const profiles = describe(mig.profiles).replaceAll(' ×', '×').replaceAll(', ', ',');
  return [mig.strategy ?? 'mig', profiles].filter((s) => s !== '').join(' ');
}

function sharingCell(e: GpuNodeEntry): string {
  const s = e.sharing;
  if (s === null || s === undefined) return NONE;
  const how = s.strategy ?? 'shared';
  return s.replicas === null ? how : `${how}×${s.replicas}`;
}
