/**
 * Rows 11a–11c: the timeline database (issue 24).
 * - 11a: the engine's longest stall flapping a 5,000-node sim with the timeline off and on, in the same
 *   run (timeline-stall.ts); then, in-process on a virtual clock, a 5,000-node cluster flapping (50
 *   nodes, 1 %, change readiness every minute) and 50 GPUs sampled every minute: the recorder's longest
 *   task in CPU time, and its cost per recorded change, beside the in-memory history's.
 * - 11b: the file's growth over that simulated day, and which table dominates.
 * - 11c: a 30-day range of one cluster read back (29 earlier days filled at the same rates by SQL):
 *   the query only (wall time from its start, and this thread's CPU time in it); the window's drawing is
 *   not measured here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import { DEFAULT_TIMELINE } from '../../common/timeline.ts';
import { appendHistory } from '../../main/inventory/history.ts';
import type { Clock } from '../../main/kube/clock.ts';
import { openReader } from '../../main/timeline/open.ts';
import { readTimeline } from '../../main/timeline/read.ts';
import { TimelineRecorder } from '../../main/timeline/recorder.ts';
import type { RemoteSim } from '../lib/sim-remote.ts';
import type { Row } from '../lib/table.ts';
import { type StallResult, timelineStall } from './timeline-stall.ts';

const runsText = (s: StallResult, on: boolean) =>
  s.runs
    .filter((r) => r.timeline === on)
    .map((r) => r.maxMs.toFixed(0))
    .join(', ');

const NODES = 5000;
const FLIPS = 50;
const GPUS = 50;
const MIN = 60_000;
const DAY = 1440;

class VirtualClock implements Clock {
  now_ = Date.UTC(2026, 11, 1);
  #timers: { due: number; fn: () => void; id: number }[] = [];
  #id = 0;
  now = () => this.now_;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.#id;
    this.#timers.push({ due: this.now_ + ms, fn, id });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.#timers = this.#timers.filter((t) => t.id !== h);
  };
  sleep = () => Promise.resolve();
  /** Runs due timers one by one, timing each (CPU time). */
  advance(ms: number, timed: (ms: number) => void): void {
    const end = this.now_ + ms;
    for (;;) {
      this.#timers.sort((a, b) => a.due - b.due || a.id - b.id);
      const t = this.#timers[0];
      if (!t || t.due > end) break;
      this.#timers.shift();
      this.now_ = t.due;
      const s = cpuMs();
      t.fn();
      timed(cpuMs() - s);
    }
    this.now_ = end;
  }
}

function inventoryOf(nodes: GpuNodeEntry[]): GpuInventoryStatus {
  return {
    observed_at: '',
    total_gpu_nodes: nodes.length,
    ready_gpu_nodes: nodes.filter((n) => n.ready).length,
    total_gpus: nodes.length * 4,
    nodes,
  };
}

/** This thread's CPU time in ms (the machine may be shared: wall time then includes waits for a core). */
function cpuMs(): number {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
}

export async function timelineRows(sim: RemoteSim, log: (s: string) => void): Promise<Row[]> {
  const stall = await timelineStall(sim, log);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-bench-timeline-'));
  try {
    const clock = new VirtualClock();
    const rec = new TimelineRecorder({ dir, clock, settings: () => DEFAULT_TIMELINE });
    rec.start();
    let nodes: GpuNodeEntry[] = Array.from({ length: NODES }, (_, i) => ({
      name: `gpu-${String(i).padStart(4, '0')}`,
      ready: true,
      readiness: 'True',
      product: 'NVIDIA-A100',
      count: 4,
      memory: 40960,
      workload: 'container',
      capacity_gpus: 4,
      allocatable_gpus: 4,
    }));
    let longest = 0;
    /** The first minute: 5,000 node states stored at once (a cluster seen for the first time). */
    let first = 0;
    let flushMs = 0;
    let hotMs = 0;
    let changes = 0;
    let history: ReturnType<typeof appendHistory> = [];
    let historyMs = 0;
    log('row 11: one simulated day of a 5,000-node flapping cluster and 50 GPUs');
    for (let m = 0; m < DAY; m++) {
      const down = new Set(Array.from({ length: FLIPS }, (_, k) => (m * FLIPS + k * 97) % NODES));
      nodes = nodes.map((n, i) =>
        down.has(i)
          ? {
              ...n,
              ready: !n.ready,
              readiness: n.ready ? 'False' : 'True',
              not_ready_reason: n.ready ? 'KubeletNotReady' : null,
              not_ready_message: n.ready ? 'PLEG is not healthy' : null,
            }
          : n,
      );
      const inv = inventoryOf(nodes);
      let s = performance.now();
      rec.inventory('large', inv);
      rec.telemetry({
        context: 'large',
        node: 'gpu-0000',
        at: clock.now(),
        gpus: Array.from({ length: GPUS }, (_, g) => ({
          index: g,
          uuid: null,
          model: null,
          util: 40 + (g % 50),
          temp: 60,
          power: 250 + g,
          fbUsed: 20000,
          fbFree: 20000,
          xid: null,
          xidCounts: null,
        })),
      });
      hotMs += performance.now() - s;
      s = performance.now();
      history = appendHistory(history, inv, new Date(clock.now()).toISOString(), 2000);
      historyMs += performance.now() - s;
      changes += FLIPS;
      clock.advance(MIN, (ms) => {
        if (m > 0) longest = Math.max(longest, ms);
        else first = Math.max(first, ms);
        flushMs += ms;
      });
    }
    rec.stop();
    const file = path.join(dir, 'timeline.db');
    const dayBytes = fs.statSync(file).size;
    const r = openReader(dir);
    if (!r.ok) throw new Error(r.message);
    const counts: Record<string, number> = {};
    for (const t of ['changes', 'counts', 'samples', 'energy', 'node_state'])
      counts[t] = Number((r.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n);
    r.db.close();
    const perRow =
      (counts.changes ?? 0) + (counts.counts ?? 0) + (counts.samples ?? 0) + (counts.energy ?? 0);
    const dominant = Object.entries(counts)
      .filter(([t]) => t !== 'node_state')
      .sort((a, b) => b[1] - a[1])[0];

    log('row 11c: 29 more days filled by SQL, then a 30-day read');
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(file);
    const start = clock.now() - 30 * DAY * MIN;
    db.exec('BEGIN');
    db.prepare(
      `WITH RECURSIVE m(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM m WHERE i < ${29 * DAY - 1})
       INSERT INTO changes (ctx, node, at, kind, f, t, reason, message)
       SELECT 'large', 'gpu-' || printf('%04d', (i * 97 + k.k * 13) % ${NODES}), ? + i * ${MIN}, 'ready',
         CASE k.k % 2 WHEN 0 THEN 'Ready' ELSE 'NotReady' END, CASE k.k % 2 WHEN 0 THEN 'NotReady' ELSE 'Ready' END,
         'KubeletNotReady', 'PLEG is not healthy'
       FROM m, (WITH RECURSIVE kk(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM kk WHERE k < ${FLIPS - 1}) SELECT k FROM kk) k`,
    ).run(start);
    db.prepare(
      `WITH RECURSIVE m(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM m WHERE i < ${29 * DAY - 1})
       INSERT INTO counts (ctx, at, ready, total, gpus) SELECT 'large', ? + i * ${MIN}, ${NODES - FLIPS}, ${NODES}, ${NODES * 4} FROM m`,
    ).run(start);
    // The telemetry of those days as the retention leaves it: 15-minute aggregates of the 50 GPUs.
    db.prepare(
      `WITH RECURSIVE m(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM m WHERE i < ${29 * 96 - 1}),
         g(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM g WHERE k < ${GPUS - 1})
       INSERT INTO aggregates SELECT 'large', 'gpu-0000', k, ? + i * ${15 * MIN}, 15,
         40, 60, 80, 60, 60, 60, 250, 260, 270, 20000, 20000, 20000, NULL FROM m, g`,
    ).run(start);
    db.prepare(
      `WITH RECURSIVE m(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM m WHERE i < ${29 * 96 - 1})
       INSERT INTO node_agg SELECT 'large', 'gpu-0000', ? + i * ${15 * MIN}, ${GPUS}, ${15 * GPUS},
         40, 60, 80, 60, 60, 60, ${250 * GPUS}, ${260 * GPUS}, ${270 * GPUS}, ${20000 * GPUS}, ${20000 * GPUS}, ${20000 * GPUS}, NULL FROM m`,
    ).run(start);
    db.exec('COMMIT');
    db.close();
    const r2 = openReader(dir);
    if (!r2.ok) throw new Error(r2.message);
    const t0 = performance.now();
    const c0 = cpuMs();
    const view = readTimeline(
      r2.db,
      { context: 'large', from: clock.now() - 30 * DAY * MIN, to: clock.now() },
      { state: 'recording' },
    );
    const readMs = performance.now() - t0;
    const readCpuMs = cpuMs() - c0;
    r2.db.close();
    const mb = dayBytes / 1e6;
    return [
      {
        id: '11a',
        measure:
          "Engine's longest stall, 5,000 nodes flapping, timeline on vs off (same run); the writer's longest task and cost per recorded change",
        ours: `timeline on: ${stall.onMs.toFixed(1)} ms (${(stall.onMs - stall.offMs >= 0 ? '+' : '') + (stall.onMs - stall.offMs).toFixed(1)} ms; runs ${runsText(stall, true)}); writer's longest task ${longest.toFixed(1)} ms CPU (first sync ${first.toFixed(1)} ms), ${((flushMs / changes) * 1000).toFixed(1)} µs CPU per change written (hot path ${((hotMs / changes) * 1000).toFixed(2)} µs)`,
        baseline: `timeline off: ${stall.offMs.toFixed(1)} ms (runs ${runsText(stall, false)}); in-memory history ${((historyMs / changes) * 1000).toFixed(2)} µs per change`,
        target: '≤ +5 ms longest stall',
        met: stall.onMs - stall.offMs <= 5,
        raw: { stall, longest, first, flushMs, hotMs, changes, historyMs },
      },
      {
        id: '11b',
        measure: 'Timeline growth per day at those rates',
        ours: `${mb.toFixed(1)} MB/day; rows ${Object.entries(counts)
          .map(([t, n]) => `${t} ${n}`)
          .join(', ')}; most rows: ${dominant?.[0]}`,
        baseline: `${perRow} rows`,
        target: '≤ 50 MB/day',
        met: mb <= 50,
        raw: { dayBytes, counts },
      },
      {
        id: '11c',
        measure: 'A 30-day range of one cluster read back (query only)',
        ours: `${readMs.toFixed(0)} ms (${readCpuMs.toFixed(0)} ms CPU; ${view.changes.length} changes kept of the range, ${view.counts.length} chart points, ${view.telemetry.length} telemetry points, ${view.episodes.length} episodes)`,
        baseline: '–',
        target: '≤ 100 ms from the query start to drawn (drawing not measured)',
        met: readMs <= 100,
        raw: { readMs, readCpuMs, changes: view.changes.length, points: view.counts.length },
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
