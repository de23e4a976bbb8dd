/**
 * Lenient number parsing for label values and resource quantities: agents write what they write,
 * so these never throw and say in words why a value was refused.
 */

/** Why a value was refused, as a code (gpuProblem.why* words it in the window) beside the English `why`. */
export type ParseFailure = 'empty' | 'negative' | 'notWhole' | 'tooLarge' | 'tooLargeQuantity';

export type Parsed =
  | { ok: true; value: number }
  | { ok: false; why: string; code: ParseFailure; max?: number };

/** Upper bounds past which a label is treated as malformed rather than believed. */
export const MAX_GPUS_PER_NODE = 1024;
export const MAX_MEMORY_MIB = 1_048_576; // 1 TiB per GPU
export const MAX_REPLICAS = 10_000;

/** A non-negative whole number in plain decimal, at most `max`. */
export function parseWholeNumber(raw: string, max: number): Parsed {
  if (raw.trim() === '') return { ok: false, why: 'is empty', code: 'empty' };
  if (/^-\d+$/.test(raw)) return { ok: false, why: 'is negative', code: 'negative' };
  if (!/^\d+$/.test(raw)) return { ok: false, why: 'is not a whole number', code: 'notWhole' };
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value > max) {
    return { ok: false, why: `is implausibly large (more than ${max})`, code: 'tooLarge', max };
  }
  return { ok: true, value };
}

const SUFFIX: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * A Kubernetes quantity that must be a whole number (extended resources are integers; the API
 * server may still hand back `1k`). Fractions and milli-units are refused.
 */
export function parseCountQuantity(raw: string): Parsed {
  const m = /^(\d+)(k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(raw);
  if (m === null) return { ok: false, why: 'is not a whole number', code: 'notWhole' };
  const value = Number(m[1]) * (SUFFIX[m[2] ?? ''] ?? 1);
  if (!Number.isSafeInteger(value))
    return { ok: false, why: 'is implausibly large', code: 'tooLargeQuantity' };
  return { ok: true, value };
}

/** A label value quoted for a problem sentence, cut short so a hostile value cannot flood the UI. */
export function quote(raw: string): string {
  return JSON.stringify(raw.length > 64 ? `${raw.slice(0, 64)}…` : raw);
}
