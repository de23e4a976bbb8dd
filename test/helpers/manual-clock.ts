/**
 * A virtual Clock for tests: time moves only when the test calls advance(), which runs every timer that
 * falls due, in due order (timers scheduled by those timers run too when they fall inside the step).
 */
import type { Clock } from '../../main/kube/clock.ts';

interface Timer {
  id: number;
  due: number;
  fn: () => void;
}

export class ManualClock implements Clock {
  #now: number;
  #timers: Timer[] = [];
  #nextId = 1;
  readonly #followers = new Set<(now: number) => void>();

  constructor(startMs = Date.UTC(2026, 10, 29, 12, 0, 0)) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#nextId++;
    this.#timers.push({ id, due: this.#now + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** Resolves when advance() passes the due time (virtual time has no process to keep alive). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.#timers.length;
  }

  /** How many timers not yet run fall due at `at` (a test waits for a component to arm its next step). */
  dueAt(at: number): number {
    return this.#timers.filter((t) => t.due === at).length;
  }

  /** Moves time forward by ms, running due timers in order of due time, then of creation. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const next = this.#nextDue(end);
      if (!next) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.#now = next.due;
      next.fn();
    }
    this.#now = end;
    for (const f of this.#followers) f(end);
  }

  /** Calls `listener` with the new time after every advance (a clock in another process follows it). */
  onAdvance(listener: (now: number) => void): () => void {
    this.#followers.add(listener);
    return () => this.#followers.delete(listener);
  }

  #nextDue(end: number): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.#timers) {
      if (t.due <= end && (!best || t.due < best.due || (t.due === best.due && t.id < best.id))) best = t;
    }
    return best;
  }
}
