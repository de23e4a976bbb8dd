/** Scales history points into SVG coordinates for the sparkline and the history chart. */
import type { HistoryPoint } from '../../common/fleet.ts';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** SVG path of one series; a step line, since counts change in jumps, not slopes. */
export function seriesPath(
  points: readonly HistoryPoint[],
  pick: (p: HistoryPoint) => number,
  box: Box,
  max: number,
): string {
  if (points.length === 0) return '';
  const times = points.map((p) => Date.parse(p.at));
  const t0 = times[0] ?? 0;
  const t1 = times[times.length - 1] ?? t0;
  const span = t1 - t0 || 1;
  const top = max > 0 ? max : 1;
  const x = (i: number) =>
    points.length === 1 ? box.left + box.width : box.left + (((times[i] ?? t0) - t0) / span) * box.width;
  const y = (v: number) => box.top + box.height - (Math.max(0, v) / top) * box.height;
  let d = '';
  points.forEach((p, i) => {
    const py = y(pick(p)).toFixed(1);
    if (i === 0) d = points.length === 1 ? `M${box.left},${py}` : `M${x(0).toFixed(1)},${py}`;
    else d += `H${x(i).toFixed(1)}V${py}`;
  });
  d += `H${(box.left + box.width).toFixed(1)}`;
  return d;
}

/** The largest value to scale to: the biggest total seen, at least 1. */
export function seriesMax(points: readonly HistoryPoint[]): number {
  let max = 1;
  for (const p of points) max = Math.max(max, p.total, p.ready);
  return max;
}

/** A few whole-number ticks from 0 to max. */
export function yTicks(max: number): number[] {
  if (max <= 5) return Array.from({ length: max + 1 }, (_, i) => i);
  const step = Math.ceil(max / 4);
  const ticks: number[] = [];
  for (let v = 0; v < max; v += step) ticks.push(v);
  ticks.push(max);
  return ticks;
}
