/**
 * The bounded history of one context's inventory (ready GPU nodes, GPU nodes, GPUs over time), for
 * the window's chart. A point is added only when one of the three numbers changes, so a quiet
 * cluster adds nothing. When the history outgrows `max`, the older half is thinned (every other
 * point dropped): recent changes stay exact, old ones get sparser, and a node flapping for days
 * still fits. The history is an immutable value (snapshots share it), so a point that is added copies
 * the array: O(n) with n ≤ max (2000 by default), and only when the numbers change. Thinning, also
 * O(n), removes about max/4 points, so it runs at most once every ~max/4 added points.
 */
import type { HistoryPoint } from '../../common/fleet.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';

/** Returns `history` itself when the numbers did not change (treat both as immutable). */
export function appendHistory(
  history: readonly HistoryPoint[],
  inv: GpuInventoryStatus,
  at: string,
  max: number,
): HistoryPoint[] {
  const point: HistoryPoint = {
    at,
    ready: inv.ready_gpu_nodes,
    total: inv.total_gpu_nodes,
    gpus: inv.total_gpus,
  };
  const last = history.at(-1);
  if (last !== undefined && sameNumbers(last, point)) return history as HistoryPoint[];
  const next = [...history, point];
  const limit = Math.max(1, Math.floor(max));
  return next.length > limit ? thin(next, limit) : next;
}

function sameNumbers(a: HistoryPoint, b: HistoryPoint): boolean {
  return a.ready === b.ready && a.total === b.total && a.gpus === b.gpus;
}

/** Halves the older half, then merges runs of equal numbers the dropping created; hard cap last. */
function thin(points: HistoryPoint[], limit: number): HistoryPoint[] {
  const half = Math.floor(points.length / 2);
  const older = points.slice(0, half).filter((_, i) => i % 2 === 0);
  const out: HistoryPoint[] = [];
  for (const p of [...older, ...points.slice(half)]) {
    const prev = out.at(-1);
    if (prev === undefined || !sameNumbers(prev, p)) out.push(p);
  }
  return out.length > limit ? out.slice(out.length - limit) : out;
}
