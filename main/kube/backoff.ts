/**
 * The retry policy of every watcher, as a named, tested object (after kube-rs's default watcher backoff):
 * 800 ms doubling to 30 s, with jitter, and back to the start once a connection has stayed healthy 120 s.
 *
 * Jitter: 'equal' (the default) waits base/2 + random·base/2, 'full' waits random·base. Equal jitter is the
 * default because it keeps a floor of half the step (no hot reconnect loop against a server that refuses at
 * once) while still spreading the reconnects of many contexts after a laptop wakes or a VPN comes back.
 * Each step's base is common/backoff.ts's backoffStep, the formula every retry of the app uses.
 */
import { type BackoffSchedule, backoffStep } from '../../common/backoff.ts';
import type { Clock } from './clock.ts';

export type Jitter = 'full' | 'equal' | 'none';

export interface BackoffOptions extends BackoffSchedule {
  jitter: Jitter;
  /** Healthy this long (see markHealthy) and the next failure starts again from initialMs. */
  resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = {
  initialMs: 800,
  maxMs: 30_000,
  factor: 2,
  jitter: 'equal',
  resetAfterMs: 120_000,
};

export class Backoff {
  readonly options: BackoffOptions;
  #attempt = 0;
  #healthySince: number | null = null;

  constructor(
    private readonly clock: Clock,
    options: Partial<BackoffOptions> = {},
    private readonly random: () => number = Math.random,
  ) {
    this.options = { ...DEFAULT_BACKOFF, ...options };
  }

  /** Failures since the last reset. */
  get attempt(): number {
    return this.#attempt;
  }

  /** The un-jittered step for the next failure. */
  baseDelay(): number {
    return backoffStep(this.options, this.#attempt);
  }

  /** Records a failure and returns how long to wait before the next try. */
  next(): number {
    if (this.#healthySince !== null && this.clock.now() - this.#healthySince >= this.options.resetAfterMs) {
      this.#attempt = 0;
    }
    this.#healthySince = null;
    const base = this.baseDelay();
    this.#attempt++;
    const r = Math.min(1, Math.max(0, this.random()));
    switch (this.options.jitter) {
      case 'full':
        return Math.round(r * base);
      case 'equal':
        return Math.round(base / 2 + (r * base) / 2);
      default:
        return base;
    }
  }

  /** The connection works now; if it still does resetAfterMs later, the next failure starts from the beginning. */
  markHealthy(): void {
    if (this.#healthySince === null) this.#healthySince = this.clock.now();
  }

  reset(): void {
    this.#attempt = 0;
    this.#healthySince = null;
  }
}
