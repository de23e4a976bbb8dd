/**
 * The one error policy of the node watcher (after kube-rs's `error_policy`): every way a list or a watch
 * can fail comes here as a KubeError, and the answer says what the loop does next: list again or retry the
 * watch, after how long, and what the user is told. Nothing else in the watcher decides about retries.
 *
 * - 410 Gone (the resourceVersion expired): the first one relists at once, as compaction is normal. A 410
 *   that follows another without a real event or bookmark in between (or an immediate relist less than
 *   RELIST_FREE_INTERVAL_MS ago) backs off like any failure and is reported: a server that answers every
 *   watch with 410 must not get a LIST in a tight loop.
 * - Configuration errors (bad TLS settings, a failing exec plugin…) wait for the user (retryNow) or a
 *   kubeconfig change: some exec plugins open a browser, and repeating that on a timer would be worse.
 * - Everything else backs off with the Backoff policy, honouring a Retry-After up to MAX_RETRY_AFTER_MS.
 *
 * Counters reset only on progress(): a real event or bookmark, never a watch merely opening (a server can
 * open every watch and fail it at once).
 */
import type { Backoff } from './backoff.ts';
import type { Clock } from './clock.ts';
import { KubeError } from './errors.ts';

export type WatchDecision =
  /** Forget the resourceVersion and list again after delayMs; report is null for a quiet, normal relist. */
  | { next: 'relist'; delayMs: number; report: KubeError | null }
  /** Keep the resourceVersion (if any) and try again after delayMs. */
  | { next: 'retry'; delayMs: number; report: KubeError }
  /** Stop retrying until retryNow() or a new watcher. */
  | { next: 'wait-for-user'; report: KubeError };

/** A server's Retry-After is believed up to this long (a hostile one could say a year). */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;
/** At most one free (immediate) relist per this interval; more 410s than that back off. */
export const RELIST_FREE_INTERVAL_MS = 10_000;

export class WatchErrorPolicy {
  #expiredInARow = 0;
  #failuresSinceProgress = 0;
  #lastFreeRelistAt: number | null = null;

  constructor(
    private readonly backoff: Backoff,
    private readonly clock: Clock,
  ) {}

  /** 410s since the last real event or bookmark. */
  get expiredInARow(): number {
    return this.#expiredInARow;
  }

  /** Whether anything failed since the last real event or bookmark (a normal first 410 does not count). */
  get troubled(): boolean {
    return this.#failuresSinceProgress > 0;
  }

  /** A real event or bookmark arrived: the server works. */
  progress(): void {
    this.#expiredInARow = 0;
    this.#failuresSinceProgress = 0;
    this.backoff.markHealthy();
  }

  /** The user asked to try again now: start over. */
  reset(): void {
    this.#expiredInARow = 0;
    this.#failuresSinceProgress = 0;
    this.#lastFreeRelistAt = null;
    this.backoff.reset();
  }

  decide(err: KubeError): WatchDecision {
    if (err.kind === 'expired') return this.#expired();
    this.#failuresSinceProgress++;
    if (err.phase === 'config-error') return { next: 'wait-for-user', report: err };
    const retryAfter = Math.min(MAX_RETRY_AFTER_MS, Math.max(0, err.retryAfterMs ?? 0));
    return { next: 'retry', delayMs: Math.max(this.backoff.next(), retryAfter), report: err };
  }

  #expired(): WatchDecision {
    this.#expiredInARow++;
    const now = this.clock.now();
    const recent = this.#lastFreeRelistAt !== null && now - this.#lastFreeRelistAt < RELIST_FREE_INTERVAL_MS;
    if (this.#expiredInARow === 1 && !recent) {
      this.#lastFreeRelistAt = now;
      return { next: 'relist', delayMs: 0, report: null };
    }
    this.#failuresSinceProgress++;
    const n = this.#expiredInARow;
    return {
      next: 'relist',
      delayMs: this.backoff.next(),
      report: new KubeError(
        'server',
        n > 1
          ? `The API server keeps expiring the node watch (410 Gone, ${n} times in a row); listing again.`
          : 'The API server expired the node watch again soon after a relist (410 Gone); listing again.',
        { status: 410 },
      ),
    };
  }
}
