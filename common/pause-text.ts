/**
 * Pure: how an alert pause reads ("until 14:00", "until Fri 08:00", "until you resume") for the
 * window's header and cards and the tray, from the snapshot's `alertsPausedUntil` ('until resumed' or
 * an RFC 3339 end). The day is named only when the pause does not end today (local time).
 */
import type { Translator } from './i18n/translator.ts';

export const UNTIL_RESUMED = 'until resumed';

/** "until 14:00" / "until Fri 08:00" / "until you resume"; null for a value that is neither. */
export function pauseEndText(until: string, now: number, tr: Translator): string | null {
  if (until === UNTIL_RESUMED) return tr.t('clusterPause.untilYouResume');
  const end = Date.parse(until);
  if (!Number.isFinite(end)) return null;
  const sameDay = new Date(end).toDateString() === new Date(now).toDateString();
  const time = tr.dateTime(end, {
    ...(sameDay ? {} : { weekday: 'short' }),
    hour: '2-digit',
    minute: '2-digit',
  });
  return tr.t('clusterPause.untilTime', { time });
}
