/**
 * Waiting for real I/O (sockets to the sim, file-system events) in tests that otherwise run on a
 * ManualClock: poll a condition on real time with a generous cap, and fail with what was awaited.
 * The cap only bounds a broken run; no test asserts on how long anything took.
 */

export interface PollOptions {
  /** Real-time cap; reaching it fails the wait. */
  limitMs?: number;
  /** Real-time pause between checks. */
  everyMs?: number;
  /**
   * Runs before every check, e.g. `() => clock.advance(0)` to run the ManualClock's timers that are due
   * now (zero-delay hand-offs) without moving virtual time.
   */
  each?: () => void;
}

export async function pollUntil(check: () => boolean, what: string, opts: PollOptions = {}): Promise<void> {
  const limitMs = opts.limitMs ?? 10_000;
  const everyMs = opts.everyMs ?? 10;
  const deadline = Date.now() + limitMs;
  for (;;) {
    opts.each?.();
    if (check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
