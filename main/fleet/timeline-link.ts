/**
 * The engine's events into the timeline (main/timeline/), and the timeline's answers to the window: a
 * range ending now and the morning summary. Stale inventories (last-known ones shown while connecting)
 * are not recorded: they say nothing about now.
 */
import type { Alert } from '../../common/alerts.ts';
import { knownProducts } from '../../common/free-gpus.ts';
import type { NodeEventView } from '../../common/node-detail.ts';
import {
  AWAY_MIN_MS,
  type AwaySummary,
  RANGE_MS,
  type TimelineEvent,
  type TimelineRangeName,
  type TimelineView,
} from '../../common/timeline.ts';
import type { Clock } from '../kube/clock.ts';
import type { TimelineRecorder } from '../timeline/recorder.ts';
import { awaySummary } from '../timeline/summary.ts';
import type { EngineEvent, FleetEngine } from './engine.ts';

/** Events with a uid and a time, as the timeline stores them (the rest cannot be deduplicated). */
export function eventRows(
  node: string,
  events: readonly NodeEventView[],
): (TimelineEvent & { uid: string })[] {
  const out: (TimelineEvent & { uid: string })[] = [];
  for (const e of events) {
    const last = e.last === null ? Number.NaN : Date.parse(e.last);
    if (e.uid === undefined || !Number.isFinite(last)) continue;
    const first = e.first ? Date.parse(e.first) : Number.NaN;
    out.push({
      uid: e.uid,
      node,
      type: e.type,
      reason: e.reason,
      message: e.message,
      count: e.count,
      first: Number.isFinite(first) && first <= last ? first : last,
      last,
    });
  }
  return out;
}

export class TimelineLink {
  readonly recorder: TimelineRecorder;
  readonly #clock: Clock;
  /**
   * Since when the user has not looked: each window close; before the first, the last run's last sign
   * of life (undefined: not asked yet); null once the summary was given.
   */
  #awaySince: number | null | undefined = undefined;

  constructor(recorder: TimelineRecorder, engine: FleetEngine, clock: Clock) {
    this.recorder = recorder;
    this.#clock = clock;
    engine.on((e) => this.#onEvent(e));
  }

  #onEvent(e: EngineEvent): void {
    const r = this.recorder;
    if (e.type === 'inventory' && !e.stale) r.inventory(e.context, e.inventory);
    else if (e.type === 'connection') r.connection(e.context, e.state);
    else if (e.type === 'telemetry') r.telemetry(e.reading);
    else if (e.type === 'node-events') r.events(e.context, eventRows(e.node, e.events));
    else if (e.type === 'snapshot') {
      // Free GPUs by product, when the figures are known and current (the recorder keeps only changes).
      for (const c of e.snapshot.contexts)
        if (c.free?.state === 'known' && !c.free.stale && !c.stale) r.free(c.context, knownProducts(c.free));
    } else if (e.type === 'alert') {
      const { suppressed: _s, ...alert } = e.alert;
      r.alert(alert satisfies Alert);
    }
  }

  range(context: string, range: TimelineRangeName, node?: string): TimelineView {
    const to = this.#clock.now();
    return this.recorder.read({
      context,
      from: to - RANGE_MS[range],
      to,
      ...(node === undefined ? {} : { node }),
    });
  }

  /** The window closed (or the app is leaving the user alone): the away time starts now. */
  windowClosed(): void {
    this.#awaySince = this.#clock.now();
  }

  /** One line per context after ≥ AWAY_MIN_MS away, once; empty otherwise. */
  summary(contexts: readonly string[]): AwaySummary[] {
    const now = this.#clock.now();
    const since = this.#awaySince === undefined ? this.recorder.previousAliveAt : this.#awaySince;
    this.#awaySince = null;
    if (since === null || now - since < AWAY_MIN_MS) return [];
    return contexts.map((context) => awaySummary(this.recorder.read({ context, from: since, to: now })));
  }
}
