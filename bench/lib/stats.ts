/** Small statistics and number formatting for the bench tables. */

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function max(xs: readonly number[]): number {
  return xs.length === 0 ? Number.NaN : Math.max(...xs);
}

/** Least-squares slope and intercept of y over x. */
export function linearFit(
  xs: readonly number[],
  ys: readonly number[],
): { slope: number; intercept: number } {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return { slope: Number.NaN, intercept: Number.NaN };
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i] as number;
    sy += ys[i] as number;
  }
  const mx = sx / n;
  const my = sy / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    num += dx * ((ys[i] as number) - my);
    den += dx * dx;
  }
  const slope = den === 0 ? Number.NaN : num / den;
  return { slope, intercept: my - slope * mx };
}

export const ms = (v: number): string =>
  Number.isFinite(v) ? (v >= 100 ? `${Math.round(v)} ms` : `${v.toFixed(1)} ms`) : 'n/a';

export const seconds = (v: number): string => (Number.isFinite(v) ? `${(v / 1000).toFixed(2)} s` : 'n/a');

export function bytes(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  if (v >= 1 << 20) return `${(v / (1 << 20)).toFixed(1)} MiB`;
  if (v >= 1 << 10) return `${(v / (1 << 10)).toFixed(1)} KiB`;
  return `${Math.round(v)} B`;
}

export const ratio = (ours: number, base: number): string =>
  Number.isFinite(ours) && Number.isFinite(base) && base > 0 ? `${(ours / base).toFixed(2)}×` : 'n/a';
