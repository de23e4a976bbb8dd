/**
 * StallMeter (stall.ts) with a second figure beside the longest gap: the gap in which this process
 * computed the most. On a small shared machine the longest gap is often a wait for a core (the engine
 * host, the simulators and other work run next door); the busiest gap is this process's own work.
 */
import type { Stall } from './stall.ts';

export interface BusyStall {
  /** The longest gap between 1 ms ticks (minus the period), and the CPU this process used in it. */
  longest: Stall;
  /** The gap with the most CPU time of this process (all its threads), and how long it lasted. */
  busiest: Stall;
}

export class BusyStallMeter {
  #timer: NodeJS.Timeout | null = null;
  #longest: Stall = { maxMs: 0, cpuMs: 0 };
  #busiest: Stall = { maxMs: 0, cpuMs: 0 };

  start(): void {
    this.#longest = { maxMs: 0, cpuMs: 0 };
    this.#busiest = { maxMs: 0, cpuMs: 0 };
    let last = performance.now();
    let lastCpu = process.cpuUsage();
    this.#timer = setInterval(() => {
      const now = performance.now();
      const cpu = process.cpuUsage();
      const gap = now - last - 1;
      const used = Math.min((cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000, gap);
      if (gap > this.#longest.maxMs) this.#longest = { maxMs: gap, cpuMs: Math.max(0, used) };
      if (gap > 0 && used > this.#busiest.cpuMs) this.#busiest = { maxMs: gap, cpuMs: used };
      last = now;
      lastCpu = cpu;
    }, 1);
  }

  stop(): BusyStall {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    return { longest: this.#longest, busiest: this.#busiest };
  }
}
