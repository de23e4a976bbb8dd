/**
 * An episode in English words, for the CLI: "nuc1 NotReady 02:14–02:31 (17 min): kubelet stopped posting
 * status · 3 events · 1 alert". Times are UTC (the CLI prints no local time anywhere else either).
 */
import type { Episode } from '../../common/timeline.ts';

const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);
const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/** Like the window (renderer/lib/timeline-text.ts spanText): seconds under a minute, minutes under an hour. */
export function durationText(ms: number): string {
  // A 40 s outage is "40 s" (it rounded to "1 min" here while the window said 40 s).
  if (ms < 60_000) return `${Math.max(0, Math.round(ms / 1000))} s`;
  const min = Math.round(ms / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return h < 48 ? `${h} h ${min % 60} min` : `${Math.floor(h / 24)} d ${h % 24} h`;
}

export function episodeText(e: Episode, now: number): string {
  const who = e.node ?? 'cluster';
  const what =
    e.kind === 'unreachable' ? 'unreachable' : e.kind === 'gpus-withdrawn' ? `GPUs ${e.state}` : e.state;
  const end = e.to === null ? 'now' : hhmm(e.to);
  const span = `${day(e.from)} ${hhmm(e.from)}–${end} (${durationText((e.to ?? now) - e.from)}${e.to === null ? ', ongoing' : ''})`;
  const why = e.message ?? e.reason;
  const extras = [
    e.events > 0 ? `${e.events} event${e.events === 1 ? '' : 's'}` : null,
    e.alerts > 0 ? `${e.alerts} alert${e.alerts === 1 ? '' : 's'}` : null,
  ].filter((x) => x !== null);
  return `${who} ${what} ${span}${why ? `: ${why}` : ''}${extras.map((x) => ` · ${x}`).join('')}`;
}
