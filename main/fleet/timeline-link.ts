/**
 * The engine's events into the timeline (main/timeline/), and the timeline's answers to the window: a
 * range ending now and the morning summary. Stale inventories (last-known ones shown while connecting)
 * are not recorded: they say nothing about now.
 */
import type { Alert } from '../../common/alerts.ts';
import {
  AWAY_MIN_MS,
  type AwaySummary,
  RANGE_MS,
  type TimelineRangeName,
  type TimelineView,
} from '../../common/timeline.ts';
import type { Clock } from '../kube/clock.ts';
import type { TimelineRecorder } from '../timeline/recorder.ts';
import { awaySummary } from '../timeline/summary.ts';
import type { EngineEvent, FleetEngine } from './engine.ts';

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
    else if (e.type === 'alert') {
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
