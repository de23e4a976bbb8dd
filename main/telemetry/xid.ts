/**
 * What the common XID codes mean (the words are in the message catalogs, `xid.c79` …, after NVIDIA's XID
 * catalogue) and which are known-benign for the GPU: caused by the application (a bad kernel, an illegal
 * address, its cleanup) or a recovery that succeeded (a page retired). Benign XIDs are shown, never alerted.
 */
import { translator } from '../../common/i18n/translator.ts';
import { xidKey } from '../../common/telemetry.ts';

const BENIGN: ReadonlySet<number> = new Set([13, 31, 43, 45, 63]);

/** English, as the CLI and the alert log speak. */
const en = translator('en');

export function xidMeaning(xid: number): string | null {
  const key = xidKey(xid);
  return key === null ? null : en.t(key);
}

export function isBenignXid(xid: number): boolean {
  return BENIGN.has(xid);
}
