/**
 * `npm run soak -- --minutes N [--seed S] [--hold-down-ms MS]`: random flaps on three large:5000 clusters
 * (simulators in a child process, loopback only) against one engine. Reports the retained-heap slope after
 * warm-up and whether every alert matched the ground truth of what was injected (soak/truth.ts). Writes
 * every sample to bench/results/soak-latest.json (ignored) and the verdict, with the commit and the
 * machine's load, to bench/results/soak.json (committed; docs/performance.md quotes it); exits 1 when an
 * alert was wrong or missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_ALERT_RULES } from '../common/alert-rules.ts';
import type { ConnectionPhase } from '../common/connection.ts';
import { syncEngine } from './lib/engine-sync.ts';
import { startSimHost } from './lib/sim-remote.ts';
import { SOAK_FILE, soakStart, soakSummary } from './lib/soak-summary.ts';
import { linearFit, ms } from './lib/stats.ts';
import { HeapSampler } from './soak/heap-sampler.ts';
import { injectUntil, prng, readyGpuNodes } from './soak/inject.ts';
import { type Injected, judge, type SeenAlert } from './soak/truth.ts';
import { writeDocsTable } from './table-docs.ts';

const { values } = parseArgs({
  options: { minutes: { type: 'string' }, seed: { type: 'string' }, 'hold-down-ms': { type: 'string' } },
});
const minutes = Number(values.minutes ?? 10);
const seed = Number(values.seed ?? Date.now() % 1_000_000);
const holdDownMs = Number(values['hold-down-ms'] ?? 2000);
if (!(minutes > 0 && minutes <= 24 * 60) || !Number.isInteger(seed) || !(holdDownMs >= 500))
  throw new Error('usage: soak --minutes N (0 < N ≤ 1440) [--seed INT] [--hold-down-ms MS ≥ 500]');
const NODES = 5000;
const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// The commit and dirtiness are read now: a commit made while a long soak runs is not what it measured.
const start = soakStart(ROOT);
log('starting 3 × large:5000 simulators in a child process');
const host = await startSimHost({ scenarios: ['large:5000', 'large:5000', 'large:5000'] });
const contexts = host.sims.map((s, i) => s.context('sim-admin', `c${i + 1}`));
const rules = { ...DEFAULT_ALERT_RULES, holdDownMs };
const { engine, ms: syncMs } = await syncEngine(contexts, { rules }, true);
log(
  `3 contexts synced in ${ms(syncMs)}; soaking for ${minutes} min (seed ${seed}, hold-down ${holdDownMs} ms)`,
);

// The first alert-policy pass of each context (a zero-delay task after its first inventory) judges the
// seeded cluster: large:5000 seeds nodes with GPUs withdrawn, alerted at first sight. Those alerts are
// about the seed, not about what is injected: counted here, kept out of the verdict.
let seeded = 0;
const offSeeded = engine.on((e) => {
  if (e.type === 'alert') seeded++;
});
await new Promise((r) => setTimeout(r, 1000));
offSeeded();
log(`${seeded} alerts about the seeded clusters in the first second after sync (not judged)`);
const alerts: SeenAlert[] = [];
const phases = new Set<ConnectionPhase>();
engine.on((e) => {
  if (e.type === 'alert') alerts.push({ context: e.alert.context, kind: e.alert.kind, nodes: e.alert.nodes });
  if (e.type === 'connection') phases.add(e.state.phase);
});
const sampler = new HeapSampler();
sampler.start(5000);
// The simulators' own memory, to show the API server side stays bounded under the same watch soak.
const simSamples: { t: number; heapUsed: number }[] = [];
const simT0 = performance.now();
const simTimer = setInterval(() => {
  void host.sims[0]
    ?.control('memoryUsage')
    .then((m) =>
      simSamples.push({ t: performance.now() - simT0, heapUsed: (m as { heapUsed: number }).heapUsed }),
    )
    .catch(() => undefined);
}, 10_000);
const events: Injected[] = [];
const endAt = Date.now() + minutes * 60_000;
const timing = { holdDownMs, gapMs: holdDownMs + 1000 };
const flips = await Promise.all(
  host.sims.map((sim, i) =>
    injectUntil(sim, `c${i + 1}`, readyGpuNodes(NODES), endAt, timing, prng(seed + i), (e) => events.push(e)),
  ),
);
// Whatever the last events owe (a held-down drop, a recovery) is due well within this.
await new Promise((r) => setTimeout(r, holdDownMs + 3000));
const stall = sampler.stop();
clearInterval(simTimer);
engine.stop();
await host.close();

const warmupMs = Math.min(60_000, Math.max(30_000, minutes * 60_000 * 0.2));
const heap = sampler.slopeMbPerMin(warmupMs);
const verdict = judge(events, alerts);
const simKept = simSamples.filter((x) => x.t >= warmupMs);
const simFit = linearFit(
  simKept.map((x) => x.t / 60_000),
  simKept.map((x) => x.heapUsed / 2 ** 20),
);
const count = (k: Injected['kind']) => events.filter((e) => e.kind === k).length;
const lines = [
  `Soak: ${minutes} min, 3 contexts × ${NODES} nodes, seed ${seed}, hold-down ${holdDownMs} ms`,
  `Injected: ${events.length} events (${count('blip')} blips, ${count('outage')} outages, ${count('flapper')} flappers), ${flips.reduce((a, b) => a + b, 0)} flips`,
  `Alerts about the seeded clusters right after sync (not judged): ${seeded}`,
  `Alerts: ${verdict.seen} raised, ${verdict.expected} expected — ${verdict.ok ? 'every alert matched the ground truth' : `${verdict.mismatches.length} MISMATCHES`}`,
  ...verdict.mismatches.slice(0, 20).map((m) => `  - ${m}`),
  `Heap slope after ${warmupMs / 1000} s warm-up: ${heap.slope >= 0 ? '+' : ''}${heap.slope.toFixed(3)} MB/min over ${heap.samples} samples (${heap.first.toFixed(1)} → ${heap.last.toFixed(1)} MB retained)`,
  `Simulators (3 × large:5000, one process): heap slope ${simFit.slope >= 0 ? '+' : ''}${simFit.slope.toFixed(3)} MB/min over ${simKept.length} samples (${((simKept[0]?.heapUsed ?? Number.NaN) / 2 ** 20).toFixed(0)} → ${((simKept.at(-1)?.heapUsed ?? Number.NaN) / 2 ** 20).toFixed(0)} MB)`,
  `Longest event-loop stall: ${ms(stall.maxMs)} (${ms(stall.cpuMs)} on our CPU); connection phases seen after sync: ${[...phases].join(', ') || 'none (stayed live)'}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'results/soak-latest.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
const result = {
  at: new Date().toISOString(),
  minutes,
  seed,
  holdDownMs,
  heap,
  simHeap: { slope: simFit.slope, samples: simKept.length },
  stall,
  verdict,
  events,
  samples: sampler.samples,
};
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
// The committed summary docs/performance.md quotes (`npm run bench:table` rewrites the sentence).
const summary = soakSummary(start, {
  at: result.at,
  minutes,
  alertsSeen: verdict.seen,
  alertsExpected: verdict.expected,
  mismatches: verdict.mismatches.length,
  heapSlopeMbPerMin: heap.slope,
});
fs.writeFileSync(path.join(ROOT, SOAK_FILE), `${JSON.stringify(summary, null, 2)}\n`);
writeDocsTable(ROOT);
process.exit(verdict.ok ? 0 : 1);
