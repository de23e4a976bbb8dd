/**
 * Time, injected: everything in the engine that waits (backoff, stall timers, request timeouts, debounce)
 * asks a Clock, so tests can run on a virtual one (test/helpers/manual-clock.ts).
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // A pending retry or stall timer must never keep a CLI process alive on its own.
    t.unref?.();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
