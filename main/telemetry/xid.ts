/**
 * What the common XID codes mean (the words are in the message catalogs, `xid.c79` …, after NVIDIA's XID
 * catalogue), which are known-benign for the GPU, and what a reading says that is new.
 *
 * Benign: caused by the application (13, 31, 43, 45: a bad kernel, an illegal address, its cleanup; these
 * are the application's warnings, never hardware alerts) or a recovery that succeeded (63, a page
 * retired). Benign XIDs are shown, never alerted.
 *
 * Two metrics, read as the exporter really exports them:
 * - `DCGM_EXP_XID_ERRORS_COUNT` (dcgm-exporter's xid-errors collector, when enabled): a gauge per GPU and
 *   `xid` label, the number of XID records in the exporter's sliding window (one 0-valued series without
 *   `xid` when there is none). Preferred: a rise of a count is an XID that happened again.
 * - `DCGM_FI_DEV_XID_ERRORS`: the LAST XID, which never resets. A change is news; the same value again is
 *   not (a repeated identical XID cannot be seen in it), and the value already there when a GPU is first
 *   seen is where it stands, not news (it may be months old).
 */
import type { Dict } from '../../common/dict.ts';
import { translator } from '../../common/i18n/translator.ts';
import { xidKey } from '../../common/telemetry.ts';

const APPLICATION: ReadonlySet<number> = new Set([13, 31, 43, 45]);
const BENIGN: ReadonlySet<number> = new Set([...APPLICATION, 63]);

/** XID codes are small whole numbers; NVIDIA's catalogue ends well below this. */
export const XID_MAX = 65_535;

/** English, as the CLI and the alert log speak. */
const en = translator('en');

export function xidMeaning(xid: number): string | null {
  const key = xidKey(xid);
  return key === null ? null : en.t(key);
}

export function isBenignXid(xid: number): boolean {
  return BENIGN.has(xid);
}

/** 13, 31, 43, 45: the application's errors (a warning about the job, not the GPU's hardware). */
export function isApplicationXid(xid: number): boolean {
  return APPLICATION.has(xid);
}

/** The value as an XID: a whole number from 1 to XID_MAX, else null (the caller logs it at debug). */
export function wholeXid(value: number): number | null {
  return Number.isInteger(value) && value >= 1 && value <= XID_MAX ? value : null;
}

/** What one GPU's scrape said of XIDs: the sticky last one, and the windowed counts when exported. */
export interface XidSeen {
  last: number | null;
  /** XID → records in the exporter's window; null when the count metric is not exported. */
  counts: Dict<number> | null;
}

/**
 * The XIDs of `now` that are news after `prev` (undefined: the GPU's first reading). With counts, every
 * XID whose count rose (from nothing at first sight, since the window is recent); without, the last XID
 * when it changed (never at first sight).
 */
export function newXids(prev: XidSeen | undefined, now: XidSeen): number[] {
  if (now.counts !== null) {
    const news: number[] = [];
    for (const [code, count] of Object.entries(now.counts)) {
      const before = prev?.counts?.[code] ?? 0;
      if (count > before) news.push(Number(code));
    }
    return news.sort((a, b) => a - b);
  }
  if (prev === undefined || now.last === null || now.last === prev.last) return [];
  return [now.last];
}
