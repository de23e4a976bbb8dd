/**
 * Row 11a's stall part (issue 24): the engine's longest event-loop stall during a 5,000-node flapping run
 * with the timeline off and on, measured in the same run, in turns (off, on, off, on, …), so a busy
 * machine weighs on both alike. The engine and the recorder run in this process as the engine host runs
 * them (AppCore's TimelineLink, WAL checkpoints in a worker); the sim runs in a child process.
 * Flapping: every FLIP_MS one of FLIPPING nodes changes readiness (down, then up), each a watch event and
 * a new 5,000-node inventory for the engine and the timeline.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEFAULT_TIMELINE } from '../../common/timeline.ts';
import type { FleetEngine } from '../../main/fleet/engine.ts';
import { TimelineLink } from '../../main/fleet/timeline-link.ts';
import { systemClock } from '../../main/kube/clock.ts';
import { TimelineRecorder } from '../../main/timeline/recorder.ts';
import { syncEngine } from '../lib/engine-sync.ts';
import { sleep } from '../lib/flipper.ts';
import type { RemoteSim } from '../lib/sim-remote.ts';
import { StallMeter } from '../lib/stall.ts';
import { median } from '../lib/stats.ts';

const FLIPPING = 50;
const FLIP_MS = 100;
const RUN_MS = 8_000;
const PAIRS = 3;

export interface StallRun {
  timeline: boolean;
  /** monitorEventLoopDelay's max (1 ms resolution), ms. */
  maxMs: number;
  /** The longest 1 ms-timer gap and this process's CPU in it (bench/lib/stall.ts). */
  gapMs: number;
  gapCpuMs: number;
  flips: number;
  /** Node changes the timeline recorded in the run (its read is capped at 5,000), 0 when off. */
  rows: number;
}

export interface StallResult {
  runs: StallRun[];
  /** Median over the runs of each kind of its longest stall. */
  offMs: number;
  onMs: number;
}

async function flap(sim: RemoteSim, ms: number, offset: number): Promise<number> {
  const end = performance.now() + ms;
  let flips = 0;
  while (performance.now() < end) {
    const k = offset + flips;
    const name = `node-${String((k % FLIPPING) + 1).padStart(4, '0')}`;
    // Each node goes down on its first turn and up on its next.
    const down = Math.floor(k / FLIPPING) % 2 === 0;
    await sim.control(
      'setNodeReady',
      name,
      down ? 'False' : 'True',
      down ? 'KubeletNotReady' : 'KubeletReady',
    );
    flips++;
    await sleep(FLIP_MS);
  }
  return flips;
}

export async function timelineStall(sim: RemoteSim, log: (s: string) => void): Promise<StallResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-bench-stall-'));
  const { engine } = await syncEngine([sim.context('sim-admin', 'large')], {}, true);
  const runs: StallRun[] = [];
  let offset = 0;
  try {
    for (let i = 0; i < PAIRS * 2; i++) {
      const on = i % 2 === 1;
      // The link subscribes to the engine for as long as this run lasts.
      const offs: (() => void)[] = [];
      const scoped = {
        on: (fn: Parameters<FleetEngine['on']>[0]) => {
          const off = engine.on(fn);
          offs.push(off);
          return off;
        },
      } as unknown as FleetEngine;
      const recorder = on
        ? new TimelineRecorder({
            dir,
            clock: systemClock,
            settings: () => DEFAULT_TIMELINE,
            checkpointInWorker: true,
          })
        : null;
      if (recorder) {
        recorder.start();
        new TimelineLink(recorder, scoped, systemClock);
      }
      const before = recorder ? rowsIn(recorder) : 0;
      await sleep(500);
      const h = monitorEventLoopDelay({ resolution: 1 });
      const meter = new StallMeter();
      h.enable();
      meter.start();
      const flips = await flap(sim, RUN_MS, offset);
      offset += flips;
      // What the last flips queued is written before the run ends.
      await sleep(1_500);
      const gap = meter.stop();
      h.disable();
      for (const off of offs) off();
      const rows = recorder ? rowsIn(recorder) - before : 0;
      recorder?.stop();
      const run = { timeline: on, maxMs: h.max / 1e6, gapMs: gap.maxMs, gapCpuMs: gap.cpuMs, flips, rows };
      log(
        `row 11a: timeline ${on ? 'on ' : 'off'}: longest stall ${run.maxMs.toFixed(1)} ms (gap ${gap.maxMs.toFixed(1)} ms, ${gap.cpuMs.toFixed(1)} ms CPU), ${flips} flips, ${rows} changes recorded`,
      );
      runs.push(run);
    }
  } finally {
    engine.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const of = (on: boolean) => median(runs.filter((r) => r.timeline === on).map((r) => r.maxMs));
  return { runs, offMs: of(false), onMs: of(true) };
}

/** Node changes of the last hour the recorder has written (read through its own connection). */
function rowsIn(recorder: TimelineRecorder): number {
  const now = Date.now();
  const view = recorder.read({ context: 'large', from: now - 3_600_000, to: now + 60_000 });
  return view.changes.length;
}
