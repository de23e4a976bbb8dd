/**
 * Time, injected: everything in the engine that waits (backoff, stall timers, request timeouts, debounce)
 * asks a Clock, so tests can run on a virtual one (test/helpers/manual-clock.ts).
 *
 * Two kinds of wait, because Node exits when nothing but unref'd timers is left:
 * - `setTimeout` is a BACKGROUND timer (retry, stall, debounce): on the system clock it is unref'd, so
 *   a pending retry never keeps a finished CLI process alive on its own.
 * - `sleep` is an AWAITED wait: the caller cannot go on until it ends, so it keeps the process alive.
 *   Awaiting an unref'd timer with nothing else pending lets the event loop empty, and Node exits
 *   with code 13 (unsettled top-level await) and no output — what `crd --install` did.
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** A background timer: must never be the only thing an `await` waits for (see the module comment). */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** An awaited wait of `ms`; keeps the process alive until it resolves. */
  sleep(ms: number): Promise<void>;
}

/** Node fires a timer of more than this many ms after 1 ms (with a warning), not when asked. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A background timer that may wait longer than MAX_TIMER_MS: it re-arms itself until it is due. */
interface LongTimer {
  t: ReturnType<typeof setTimeout>;
}

function backgroundTimer(fn: () => void, ms: number): LongTimer {
  const handle = {} as LongTimer;
  const arm = (left: number) => {
    handle.t = setTimeout(
      () => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : fn()),
      Math.min(left, MAX_TIMER_MS),
    );
    // A pending retry or stall timer must never keep a CLI process alive on its own.
    handle.t.unref?.();
  };
  arm(Math.max(0, ms));
  return handle;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => backgroundTimer(fn, ms),
  clearTimeout: (handle) => {
    if (handle !== null && typeof handle === 'object' && 't' in handle) clearTimeout((handle as LongTimer).t);
  },
  // Not unref'd: someone is awaiting it.
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};
