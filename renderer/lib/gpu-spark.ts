/** Sparkline paths of one GPU's recent readings (pure): utilisation 0–100 %, temperature 20–100 °C. */
import type { GpuSample } from '../../common/telemetry.ts';

export interface SparkBox {
  width: number;
  height: number;
}

function path(
  samples: readonly GpuSample[],
  pick: (s: GpuSample) => number | null,
  lo: number,
  hi: number,
  box: SparkBox,
): string {
  const pts = samples
    .map((s, i) => ({ i, v: pick(s) }))
    .filter((p): p is { i: number; v: number } => p.v !== null);
  if (pts.length === 0) return '';
  const n = Math.max(1, samples.length - 1);
  const x = (i: number) => (samples.length === 1 ? box.width : (i / n) * box.width);
  const y = (v: number) => box.height - ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * box.height;
  // One reading: a flat line across, so the first refresh already shows where the value stands.
  if (pts.length === 1) {
    const y1 = y((pts[0] as { v: number }).v).toFixed(1);
    return `M0.0,${y1}L${box.width.toFixed(1)},${y1}`;
  }
  return pts.map((p, k) => `${k === 0 ? 'M' : 'L'}${x(p.i).toFixed(1)},${y(p.v).toFixed(1)}`).join('');
}

export function utilPath(samples: readonly GpuSample[], box: SparkBox): string {
  return path(samples, (s) => s.util, 0, 100, box);
}

export function tempPath(samples: readonly GpuSample[], box: SparkBox): string {
  return path(samples, (s) => s.temp, 20, 100, box);
}
