/**
 * Runs a watcher against a real local server on virtual time: between clock steps it lets real I/O
 * settle (until an activity counter stops changing for a few polls, or a poll limit passes), so what
 * a test counts is requests per virtual second. The counts are upper bounds that do not depend on the
 * machine's speed; nothing here asserts how long anything took.
 */
import type { ManualClock } from '../helpers/manual-clock.ts';

const POLL_MS = 5;
const QUIET_POLLS = 3;
const MAX_POLLS = 200;

/** Waits until `activity()` has not changed for QUIET_POLLS polls (or MAX_POLLS polls pass). */
export async function settle(activity: () => number): Promise<void> {
  let last = activity();
  let quiet = 0;
  for (let i = 0; i < MAX_POLLS && quiet < QUIET_POLLS; i++) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const now = activity();
    if (now === last) quiet++;
    else {
      quiet = 0;
      last = now;
    }
  }
}

/** Advances `clock` by `totalMs` in steps of `stepMs`, settling before each step and after the last. */
export async function runVirtual(
  clock: ManualClock,
  totalMs: number,
  activity: () => number,
  opts: { stepMs?: number; eachStep?: () => void } = {},
): Promise<void> {
  const step = opts.stepMs ?? 500;
  for (let t = 0; t < totalMs; t += step) {
    await settle(activity);
    opts.eachStep?.();
    clock.advance(step);
  }
  await settle(activity);
}
