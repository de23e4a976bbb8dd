/**
 * Pure: the morning summary of one cluster from its timeline since the user was last there — how many
 * episodes, how long at least one GPU node (or the whole cluster) was down, and the energy used.
 */
import type { AwaySummary, TimelineView } from '../../common/timeline.ts';

/** Length of the union of the intervals, each clipped to [from, to]. */
export function unionMs(
  intervals: readonly { from: number; to: number | null }[],
  from: number,
  to: number,
): number {
  const clipped = intervals
    .map((i) => ({ a: Math.max(from, i.from), b: Math.min(to, i.to ?? to) }))
    .filter((i) => i.b > i.a)
    .sort((x, y) => x.a - y.a);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const { a, b } of clipped) {
    if (a > end) {
      total += b - a;
      end = b;
    } else if (b > end) {
      total += b - end;
      end = b;
    }
  }
  return total;
}

export function awaySummary(view: TimelineView): AwaySummary {
  const down = view.episodes.filter((e) => e.kind !== 'gpus-withdrawn');
  return {
    context: view.context,
    since: view.from,
    episodes: view.episodes.length,
    downMs: unionMs(down, view.from, view.to),
    kwh: view.energy.kwh,
  };
}
