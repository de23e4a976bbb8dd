/**
 * Longest event-loop stall, measured with a 1 ms timer: the largest gap between two ticks, and how much
 * CPU this process used during that gap. On a small shared machine (the simulators run next door) a gap
 * with little CPU in it is the process waiting for a core, not its own work.
 */
export interface Stall {
  /** Longest gap between 1 ms ticks, minus the 1 ms period. */
  maxMs: number;
  /** CPU time this process (all its threads) used during that gap. */
  cpuMs: number;
}

export class StallMeter {
  #timer: NodeJS.Timeout | null = null;
  #worst: Stall = { maxMs: 0, cpuMs: 0 };
  #busiest: Stall = { maxMs: 0, cpuMs: 0 };

  start(): void {
    this.#worst = { maxMs: 0, cpuMs: 0 };
    this.#busiest = { maxMs: 0, cpuMs: 0 };
    let last = performance.now();
    let lastCpu = process.cpuUsage();
    this.#timer = setInterval(() => {
      const now = performance.now();
      const cpu = process.cpuUsage();
      const gap = now - last - 1;
      const used = Math.max(0, Math.min((cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000, gap));
      if (gap > this.#worst.maxMs) this.#worst = { maxMs: gap, cpuMs: used };
      if (gap > 0 && used > this.#busiest.cpuMs) this.#busiest = { maxMs: gap, cpuMs: used };
      last = now;
      lastCpu = cpu;
    }, 1);
  }

  /** Stops, and returns the longest gap. */
  stop(): Stall {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    return this.#worst;
  }

  /**
   * The gap with the most of this process's own CPU in it (not always the longest: on a shared machine
   * the longest may be a wait for a core), as of the last tick.
   */
  get busiest(): Stall {
    return this.#busiest;
  }
}
