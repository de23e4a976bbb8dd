/**
 * Samples retained heap (after a forced full GC) at a fixed period, and the longest event-loop stall in
 * between (the forced GC pauses themselves are left out: they are the sampler's, not the engine's).
 */
import { type Stall, StallMeter } from '../lib/stall.ts';
import { linearFit } from '../lib/stats.ts';

export interface HeapSample {
  /** ms since the sampler started */
  t: number;
  heapUsed: number;
}

export class HeapSampler {
  readonly samples: HeapSample[] = [];
  #timer: NodeJS.Timeout | null = null;
  #meter = new StallMeter();
  #worst: Stall = { maxMs: 0, cpuMs: 0 };
  readonly #t0 = performance.now();

  start(periodMs: number): void {
    this.#meter.start();
    this.#timer = setInterval(() => this.#sample(), periodMs);
  }

  stop(): Stall {
    if (this.#timer) clearInterval(this.#timer);
    this.#take(this.#meter.stop());
    return this.#worst;
  }

  /** MB per minute over the samples taken after `warmupMs`, by least squares. */
  slopeMbPerMin(warmupMs: number): { slope: number; samples: number; first: number; last: number } {
    const kept = this.samples.filter((s) => s.t >= warmupMs);
    const { slope } = linearFit(
      kept.map((s) => s.t / 60_000),
      kept.map((s) => s.heapUsed / 2 ** 20),
    );
    return {
      slope,
      samples: kept.length,
      first: (kept[0]?.heapUsed ?? Number.NaN) / 2 ** 20,
      last: (kept.at(-1)?.heapUsed ?? Number.NaN) / 2 ** 20,
    };
  }

  #take(s: Stall): void {
    if (s.maxMs > this.#worst.maxMs) this.#worst = s;
  }

  #sample(): void {
    this.#take(this.#meter.stop());
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    this.samples.push({ t: performance.now() - this.#t0, heapUsed: process.memoryUsage().heapUsed });
    this.#meter.start();
  }
}
