/**
 * Leading-edge throttle on an injected clock: the first call runs at once (an isolated node flip is
 * seen within milliseconds), calls within `intervalMs` after it are folded into one trailing run
 * (a relist or a burst of events costs one recompute, not one per event).
 */
import type { Clock } from '../kube/clock.ts';

export class Throttle {
  #lastRun = Number.NEGATIVE_INFINITY;
  #timer: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly run: () => void,
  ) {}

  request(): void {
    if (this.#timer !== null) return;
    const wait = this.#lastRun + this.intervalMs - this.clock.now();
    if (wait <= 0) {
      this.#fire();
      return;
    }
    this.#timer = this.clock.setTimeout(() => {
      this.#timer = null;
      this.#fire();
    }, wait);
  }

  cancel(): void {
    if (this.#timer !== null) this.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #fire(): void {
    this.#lastRun = this.clock.now();
    this.run();
  }
}
