/**
 * One job per event-loop turn, across the whole process. Every setImmediate queued in one turn runs in
 * the next turn's check phase, back to back: three contexts each yielding with their own setImmediate
 * (a first build's slice, a list page) ran their work in one turn, and the loop was held for the sum
 * (3 × 10–15 ms cold). Waiters here are let go one per turn, in the order they asked, so the timers
 * and I/O of everything else run between any two of them.
 */
const waiting: (() => void)[] = [];
let scheduled = false;

function releaseOne(): void {
  const next = waiting.shift();
  // The next waiter's turn is asked for first: the one released now runs in this callback's microtasks.
  scheduled = waiting.length > 0;
  if (scheduled) setImmediate(releaseOne);
  next?.();
}

/** Resolves in a later turn of its own (not shared with any other waiter of this queue). */
export function sharedTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(releaseOne);
    }
  });
}
