/**
 * The cap on what the settings file may hold when written: the same SETTINGS_MAX_BYTES the next start
 * reads (file.ts), so the app never writes a file it would then refuse and move aside as corrupt. The
 * alert log is the one part that grows by itself (500 alerts, each naming up to 10,000 nodes), so its
 * oldest entries give way first; a document still too large without them is refused with a sentence.
 */

import type { Settings } from '../../common/settings.ts';
import { mib } from './bounded-file.ts';
import { SETTINGS_MAX_BYTES } from './file.ts';

/** What conf and electron-store write for a document: their default `serialize`, tab-indented JSON. */
export function settingsFileBytes(doc: Readonly<Settings>): number {
  return Buffer.byteLength(JSON.stringify(doc, undefined, '\t'));
}

export type Fitted =
  | { ok: true; doc: Settings; shed: number }
  /** `size`, `max`: the two sizes the sentence names, as it writes them (the window words them too). */
  | { ok: false; message: string; size: string; max: string };

/**
 * The document as it may be written (at most `maxBytes` as a file), with `shed` oldest alerts dropped to
 * get there (the fewest that do), or the sentence that refuses it. Costs one serialization when it fits,
 * about ten more (a binary search over the alert log) when it does not.
 */
export function fitToFile(doc: Settings, maxBytes = SETTINGS_MAX_BYTES): Fitted {
  const bytes = settingsFileBytes(doc);
  if (bytes <= maxBytes) return { ok: true, doc, shed: 0 };
  const log = doc.alertLog;
  const without = (shed: number): Settings => ({ ...doc, alertLog: log.slice(shed) });
  if (settingsFileBytes(without(log.length)) > maxBytes)
    return {
      ok: false,
      size: mib(bytes),
      max: mib(maxBytes),
      message:
        `Settings could not be saved: they would take ${mib(bytes)}, more than the ${mib(maxBytes)} ` +
        'a settings file may hold, even without the alert log.',
    };
  // The fewest oldest alerts to drop: the size falls as more are dropped, so a binary search finds it.
  let lo = 1;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (settingsFileBytes(without(mid)) <= maxBytes) hi = mid;
    else lo = mid + 1;
  }
  return { ok: true, doc: without(lo), shed: lo };
}
