/** A reactive "now" for ages ("stale · 3 min"); tests pass a fixed clock instead of waiting. */

export type NowFn = () => number;

export class Clock {
  #now = $state(0);
  #read: NowFn;

  constructor(read: NowFn = Date.now) {
    this.#read = read;
    this.#now = read();
  }

  get current(): number {
    return this.#now;
  }

  /** Re-reads the time source; called by a timer in the app, by hand in tests. */
  tick(): void {
    this.#now = this.#read();
  }

  /** Ticks every `ms` until the returned function is called. */
  start(ms = 15_000): () => void {
    const id = setInterval(() => this.tick(), ms);
    return () => clearInterval(id);
  }
}
