/**
 * The one backoff formula of the app, in common/ so the browser page uses it too: the k-th wait (0-based)
 * of initial × factor^k, capped at max, without jitter or state. main/kube/backoff.ts builds the watchers'
 * jittered, resetting Backoff on it; alert forwarding, telemetry's per-pod retries, the timeline's
 * reopens, the engine host's restarts and the browser page's reconnect probes call it directly.
 * test/architecture/one-backoff.test.ts fails on a capped power written anywhere else.
 */

/** The schedule of a backoff: the first wait, the most it waits, and what each failure multiplies by. */
export interface BackoffSchedule {
  initialMs: number;
  maxMs: number;
  factor: number;
}

/**
 * The un-jittered wait for step `k` (0-based: the first retry waits initialMs). The exponent is capped
 * so a long streak cannot overflow to Infinity.
 */
export function backoffStep(s: BackoffSchedule, k: number): number {
  return Math.min(s.maxMs, s.initialMs * s.factor ** Math.min(Math.max(0, k), 64));
}
