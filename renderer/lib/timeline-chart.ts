/**
 * Pure geometry of the timeline's charts: a time axis that runs from the range's start to its end (now),
 * step lines for counts, plain lines for telemetry, time ticks, and the point under the pointer.
 */
import type { Box } from './chart.ts';

export interface TimeScale {
  x: (at: number) => number;
  at: (x: number) => number;
}

export function timeScale(from: number, to: number, box: Box): TimeScale {
  const span = Math.max(1, to - from);
  return {
    x: (at) => box.left + ((Math.min(to, Math.max(from, at)) - from) / span) * box.width,
    at: (x) => from + ((Math.min(box.left + box.width, Math.max(box.left, x)) - box.left) / box.width) * span,
  };
}

const yOf = (v: number, box: Box, max: number) =>
  box.top + box.height - (Math.max(0, v) / (max > 0 ? max : 1)) * box.height;

/** A step line (counts change in jumps), held to the end of the range. */
export function stepPath<T extends { at: number }>(
  points: readonly T[],
  pick: (p: T) => number,
  s: TimeScale,
  box: Box,
  max: number,
  to: number,
): string {
  let d = '';
  for (const p of points) {
    const x = s.x(p.at).toFixed(1);
    const y = yOf(pick(p), box, max).toFixed(1);
    d += d === '' ? `M${x},${y}` : `H${x}V${y}`;
  }
  return d === '' ? '' : `${d}H${s.x(to).toFixed(1)}`;
}

/** A line through the points that have a value; a gap longer than `gapMs` breaks it. */
export function linePath<T extends { at: number }>(
  points: readonly T[],
  pick: (p: T) => number | null,
  s: TimeScale,
  box: Box,
  max: number,
  gapMs: number,
): string {
  let d = '';
  let last: number | null = null;
  for (const p of points) {
    const v = pick(p);
    if (v === null) {
      last = null;
      continue;
    }
    const cmd = last === null || p.at - last > gapMs ? 'M' : 'L';
    d += `${cmd}${s.x(p.at).toFixed(1)},${yOf(v, box, max).toFixed(1)}`;
    last = p.at;
  }
  return d;
}

/** `n` evenly spaced times across the range, ends included. */
export function timeTicks(from: number, to: number, n: number): number[] {
  const k = Math.max(2, Math.floor(n));
  return Array.from({ length: k }, (_, i) => from + ((to - from) * i) / (k - 1));
}

/** The last point at or before `at` (what the step line shows there), or null before the first. */
export function pointAt<T extends { at: number }>(points: readonly T[], at: number): T | null {
  let lo = 0;
  let hi = points.length - 1;
  let found: T | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = points[mid] as T;
    if (p.at <= at) {
      found = p;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** A nice maximum for a value axis (1, 2, 5 × 10^k) at or above `v`. */
export function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const e = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * e >= v) return m * e;
  return 10 * e;
}
