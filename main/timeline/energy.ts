/**
 * Pure: energy from power samples. Between two readings of one GPU the power is taken as the mean of
 * both (trapezoid rule); a gap longer than MAX_GAP_MS is not integrated (the GPU's power then is not
 * known), nor is a reading older than the last one. Energy is kept in BUCKET_MS buckets.
 */

export const MAX_GAP_MS = 10 * 60_000;
export const MINUTE_MS = 60_000;
export const BUCKET_MS = 15 * 60_000;

export interface PowerReading {
  at: number;
  watts: number;
}

/** Watt-hours between `prev` and `cur`, or 0 when the gap cannot be integrated. */
export function wattHours(prev: PowerReading | null, cur: PowerReading): number {
  if (prev === null) return 0;
  const dt = cur.at - prev.at;
  if (dt <= 0 || dt > MAX_GAP_MS) return 0;
  return (((prev.watts + cur.watts) / 2) * dt) / 3_600_000;
}

export const bucketOf = (at: number, size: number) => Math.floor(at / size) * size;
