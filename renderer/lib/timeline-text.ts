/** The timeline in the window's language: status, episode lines, energy and the morning summary. */
import type { Translator } from '../../common/i18n/translator.ts';
import type { AwaySummary, Episode, TimelineFaultKind, TimelineStatus } from '../../common/timeline.ts';

const FAULT_KEYS = {
  full: 'timeline.fault.full',
  'read-only': 'timeline.fault.readOnly',
  corrupt: 'timeline.fault.corrupt',
  busy: 'timeline.fault.busy',
  newer: 'timeline.fault.newer',
  io: 'timeline.fault.io',
  starting: 'timeline.fault.starting',
  stopped: 'timeline.fault.stopped',
} as const satisfies Record<TimelineFaultKind, string>;

export function statusText(s: TimelineStatus, tr: Translator): string {
  if (s.state === 'recording') return tr.t('timeline.recording');
  if (s.state === 'read-only') return tr.t('timeline.readOnly');
  return tr.t('timeline.notRecording', { reason: tr.t(FAULT_KEYS[s.kind]) });
}

/** An exact length for an episode: "17 min", "2 h 5 min", "3 d". */
export function spanText(ms: number, tr: Translator): string {
  if (ms < 60_000) return tr.t('duration.s', { n: Math.max(0, Math.round(ms / 1000)) });
  const min = Math.round(ms / 60_000);
  if (min < 60) return tr.t('duration.min', { n: min });
  const h = Math.floor(min / 60);
  if (h < 48)
    return min % 60 === 0 ? tr.t('duration.h', { n: h }) : tr.t('duration.hMin', { h, m: min % 60 });
  return tr.t('duration.d', { n: Math.floor(h / 24) });
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Ranges longer than a day show dates with their times (24 h shows times only). */
export const longRange = (from: number, to: number) => to - from > 26 * 3_600_000;
const sameDay = (a: number, b: number) => new Date(a).toDateString() === new Date(b).toDateString();
/** "02:14" within a day of the range's end, "12-03 02:14" before. */
export function clockText(at: number, longRange: boolean): string {
  const d = new Date(at);
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return longRange ? `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}` : hm;
}

/** "nuc1 NotReady", "Cluster unreachable", "nuc3: GPUs offered 2/4". */
export function episodeTitle(e: Episode, tr: Translator): string {
  if (e.kind === 'unreachable') return tr.t('timeline.unreachable');
  if (e.kind === 'gpus-withdrawn') return tr.t('timeline.withdrawn', { node: e.node ?? '', state: e.state });
  return tr.t('timeline.notReady', { node: e.node ?? '', state: e.state });
}

/** "02:14–02:31 (17 min)", or "02:14–now (17 min, ongoing)". */
export function episodeSpan(e: Episode, now: number, longRange: boolean, tr: Translator): string {
  const to = e.to === null ? tr.t('timeline.now') : clockText(e.to, longRange && !sameDay(e.from, e.to));
  const length = spanText((e.to ?? now) - e.from, tr);
  const duration =
    e.to === null ? `${length}${tr.t('common.listSeparator')}${tr.t('timeline.ongoing')}` : length;
  return tr.t('timeline.span', { from: clockText(e.from, longRange), to, duration });
}

/** "3 events · 1 alert" (empty when neither). */
export function episodeCounts(e: Episode, tr: Translator): string {
  const parts: string[] = [];
  if (e.events > 0) parts.push(tr.t('timeline.events', { count: e.events }));
  if (e.alerts > 0) parts.push(tr.t('timeline.alerts', { count: e.alerts }));
  return parts.join(' · ');
}

export function kwhText(kwh: number): string {
  return kwh < 10 ? kwh.toFixed(2) : kwh.toFixed(1);
}

/** "4.10 kWh in this range · 1.23 EUR" when a price is set. */
export function energyText(kwh: number, price: number | null, currency: string, tr: Translator): string {
  if (price === null) return tr.t('timeline.energyTotal', { kwh: kwhText(kwh) });
  const cost = `${(kwh * price).toFixed(2)}${currency ? ` ${currency}` : ''}`;
  return tr.t('timeline.energyCost', { kwh: kwhText(kwh), cost });
}

/** "home-lab: 2 episodes, 23 min down, 4.10 kWh". */
export function summaryText(s: AwaySummary, tr: Translator): string {
  return tr.t('timeline.summary', {
    context: s.context,
    episodes: tr.t('timeline.summaryEpisodes', { count: s.episodes }),
    down: spanText(s.downMs, tr),
    kwh: kwhText(s.kwh),
  });
}
