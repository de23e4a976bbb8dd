/**
 * Longest event-loop stall, measured with a 1 ms timer: the largest gap between two ticks, and how much
 * CPU this process used during that gap. On a small shared machine (the simulators run next door) a gap
 * with little CPU in it is the process waiting for a core, not its own work. The process's CPU counts
 * its other threads too (V8's concurrent GC, libuv's pool where gzip is inflated), which run beside
 * the loop; the loop's own thread's share is given apart.
 */
export interface Stall {
  /** Longest gap between 1 ms ticks, minus the 1 ms period. */
  maxMs: number;
  /** CPU time this process (all its threads) used during that gap. */
  cpuMs: number;
  /** Of that, the CPU time of the event loop's own thread (the work that held the loop). */
  threadMs?: number;
}

export class StallMeter {
  #timer: NodeJS.Timeout | null = null;
  #worst: Stall = { maxMs: 0, cpuMs: 0, threadMs: 0 };
  #busiest: Stall = { maxMs: 0, cpuMs: 0, threadMs: 0 };

  start(): void {
    this.#worst = { maxMs: 0, cpuMs: 0, threadMs: 0 };
    this.#busiest = { maxMs: 0, cpuMs: 0, threadMs: 0 };
    let last = performance.now();
    let lastCpu = process.cpuUsage();
    let lastThread = process.threadCpuUsage();
    this.#timer = setInterval(() => {
      const now = performance.now();
      const cpu = process.cpuUsage();
      const thread = process.threadCpuUsage();
      const gap = now - last - 1;
      const ms = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) =>
        Math.max(0, Math.min((a.user + a.system - b.user - b.system) / 1000, gap));
      const used = ms(cpu, lastCpu);
      const own = Math.min(ms(thread, lastThread), used);
      if (gap > this.#worst.maxMs) this.#worst = { maxMs: gap, cpuMs: used, threadMs: own };
      if (gap > 0 && used > this.#busiest.cpuMs) this.#busiest = { maxMs: gap, cpuMs: used, threadMs: own };
      last = now;
      lastCpu = cpu;
      lastThread = thread;
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
