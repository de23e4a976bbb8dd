/**
 * `npm run bench`: every row next to its baseline, against the simulator over real HTTPS. Most baselines
 * are another program measured in the same run; some are our own engine with a feature off, a poller
 * scaled from real passes, an analytic delay or none (docs/performance.md says which, row by row).
 * Prints a Markdown table (and notes) on stdout, progress on stderr, merges the raw figures into
 * bench/results/latest.json (rows not measured in this run keep their last figures, with the run that
 * measured them) and regenerates the table of docs/performance.md from it. Asserts nothing.
 *
 *   node --expose-gc --import tsx bench/run.ts [--only 1,2,3,4,5,6,7,8,9,10,11,12]   (4c: row 4c alone)
 *
 * Row 12 runs at 5,000 nodes and 100,000 pods (20,000 GPU); GPU_FLEET_BENCH_FREE_SIZES=N,P,G runs it at
 * other sizes (a quick try-out: the sizes are in the row's words).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildCli, cliIsStale } from '../scripts/cli-build.mjs';
import { appBuildIsStale, buildApp } from './lib/app-build.ts';
import { buildBaseline } from './lib/built-baseline.ts';
import { provenance } from './lib/provenance.ts';
import { type BenchNote, mergeResults, parseResults } from './lib/results.ts';
import { startSimHost } from './lib/sim-remote.ts';
import { writeSimsKubeconfig } from './lib/sims-kubeconfig.ts';
import { markdownTable, type Row } from './lib/table.ts';
import { controllerSourceRows } from './rows/controller-source.ts';
import { FREE_SIZES, type FreeSizes, freeGpuRows, freeScenarios } from './rows/free-gpus.ts';
import { heapRow } from './rows/heap.ts';
import { latencyRows } from './rows/latency.ts';
import { pushBytesRows } from './rows/push-bytes.ts';
import { rendererRows } from './rows/renderer.ts';
import { SIM_LATENCY_MS, scanRows } from './rows/scan.ts';
import { shellStallMeasure, shellStallRows } from './rows/shell-stall.ts';
import { syncRows } from './rows/sync.ts';
import { telemetryRows } from './rows/telemetry.ts';
import { timelineRows } from './rows/timeline.ts';
import { trafficRows } from './rows/traffic.ts';
import { writeDocsTable } from './table-docs.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const RENDERER = path.join(ROOT, '.vite/renderer/main_window/index.html');

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = new Set((values.only ?? '1,2,3,4,5,6,7,8,9,10,11,12').split(',').map((s) => s.trim()));
const unknown = [...only].filter((g) => !/^([1-9]|1[012])$/.test(g) && g !== '4c');
if (unknown.length > 0) {
  process.stderr.write(`bench: --only takes row numbers 1 to 12 (or 4c), not ${unknown.join(', ')}.
`);
  process.exit(2);
}
// Read before measuring: the commit and tree that the figures describe.
const measuredCode = provenance(ROOT);
const started = performance.now();
const startedAt = new Date().toISOString();
const loadAtStart = os.loadavg();
const log = (s: string) =>
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${s}\n`);

const rows: Row[] = [];
const notes: BenchNote[] = [];

/**
 * One failing part must not lose the others: it becomes a row that says what went wrong (and, given
 * `title`, what the row measures).
 */
async function section(ids: string, fn: () => Promise<void>, title?: string): Promise<void> {
  try {
    await fn();
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    log(`rows ${ids} failed: ${why}`);
    rows.push({
      id: ids,
      measure: title ? `${title}: could not be measured` : 'could not be measured',
      ours: `error: ${why}`,
      baseline: '–',
      target: '–',
      met: null,
      raw: {},
    });
  }
}

// Row 4c runs with group 4, or alone (`--only 4c`: it then replaces only itself in latest.json).
const shellStall = only.has('4') || only.has('4c');
if (only.has('1') || only.has('3') || only.has('4') || only.has('4c') || only.has('6')) {
  log('starting simulators: 3 × large:5000, large:1000, homelab (in a child process)');
  const host = await startSimHost({
    scenarios: ['large:5000', 'large:5000', 'large:5000', 'large:1000', 'homelab'],
  });
  try {
    const [a, b, c, small] = host.sims.map((s) => s.kubeconfigPath) as [string, string, string, string];
    if (only.has('1') || only.has('4'))
      await section('1, 4', async () => {
        const r = await syncRows([a, b, c], log);
        rows.push(...r.rows.filter((x) => only.has(x.id[0] ?? '')));
        notes.push(...r.notes.map((text) => ({ group: only.has('4') ? '4' : '1', text })));
      });
    if (shellStall)
      await section(
        '4c',
        async () => {
          // Row 4c loads the built app: build it first when missing or older than a source.
          if (appBuildIsStale()) {
            log('building the app (main, engine host, preload) for row 4c');
            buildApp();
          }
          const r = await shellStallRows(
            host.sims.slice(0, 3).map((s) => s.info),
            host.dir,
            log,
          );
          rows.push(...r.rows);
          notes.push(...r.notes.map((text) => ({ group: '4c', text })));
        },
        shellStallMeasure(3),
      );
    if (only.has('3')) await section('3', async () => void rows.push(await heapRow(small, a, log)));
    if (only.has('6'))
      await section('6', async () => {
        // Row 6 runs the built CLI as a user would; build it first when a source is newer.
        if (cliIsStale()) {
          log('building the CLI (npm run build:cli)');
          const failed = buildCli({ quiet: true });
          if (failed !== null) throw new Error(failed);
        }
        const [homelabSim, largeSim] = [host.sims[4], host.sims[0]];
        if (!homelabSim || !largeSim) throw new Error('the simulator host started too few simulators');
        log(`row 6: starting large:5000 answering each request ${SIM_LATENCY_MS} ms late`);
        const slowHost = await startSimHost({ scenarios: ['large:5000'], requestLatencyMs: SIM_LATENCY_MS });
        try {
          const slowSim = slowHost.sims[0];
          if (!slowSim) throw new Error('the simulator host started no simulator');
          rows.push(...(await scanRows(homelabSim, largeSim, slowSim, host.dir, log)));
        } finally {
          await slowHost.close();
        }
      });
  } finally {
    await host.close();
  }
}

if (only.has('2')) {
  log('starting a large:5000 simulator with bookmarks every 3 s (time compressed ×20)');
  const host = await startSimHost({ scenarios: ['large:5000'], bookmarkIntervalMs: 3000 });
  try {
    const sim = host.sims[0];
    if (sim) await section('2', async () => void rows.push(...(await trafficRows(sim, log))));
  } finally {
    await host.close();
  }
}

if (only.has('9')) {
  log('starting a large:5000 simulator for row 9 (tray source auto vs nodes, time compressed ×20)');
  const host = await startSimHost({ scenarios: ['large:5000'], bookmarkIntervalMs: 3000 });
  try {
    const sim = host.sims[0];
    if (sim) await section('9', async () => void rows.push(...(await controllerSourceRows(sim, log))));
  } finally {
    await host.close();
  }
}

// Row 12's sizes: GPU_FLEET_BENCH_FREE_SIZES=nodes,pods,gpuPods for a quick run of the plumbing.
const givenSizes = process.env.GPU_FLEET_BENCH_FREE_SIZES?.split(',').map(Number);
const sizes: FreeSizes =
  givenSizes?.length === 3 && givenSizes.every((n) => Number.isInteger(n) && n > 0)
    ? { nodes: givenSizes[0] as number, pods: givenSizes[1] as number, gpuPods: givenSizes[2] as number }
    : FREE_SIZES;
if (only.has('12')) {
  log(`starting simulators for row 12: ${freeScenarios(sizes).join(', ')} (in a child process)`);
  const host = await startSimHost({ scenarios: freeScenarios(sizes) });
  try {
    await section('12', async () => {
      if (cliIsStale()) {
        log('building the CLI (npm run build:cli)');
        const failed = buildCli({ quiet: true });
        if (failed !== null) throw new Error(failed);
      }
      const plainJs = await buildBaseline('bench/baselines/raw-list-cli.ts');
      const all = path.join(host.dir, 'three.yaml');
      await writeSimsKubeconfig(
        all,
        host.sims.slice(0, 3).map((s) => s.info),
      );
      const bin = path.join(ROOT, 'bin/gpu-fleet.mjs');
      rows.push(...(await freeGpuRows(host.sims, all, plainJs, bin, host.dir, log, sizes)));
    });
  } finally {
    await host.close();
  }
}

if (only.has('5') || only.has('7'))
  await section('5, 7', async () => {
    if (!fs.existsSync(RENDERER)) {
      log('building the renderer (npm run build:renderer) for browser mode');
      const r = spawnSync(process.execPath, ['scripts/forge-vite-build.mjs', 'renderer'], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      if (r.status !== 0) throw new Error('the renderer build failed');
    }
    if (only.has('5')) rows.push(...(await latencyRows(log)));
    if (only.has('7')) rows.push(...(await rendererRows(log)));
  });
if (only.has('8')) await section('8', async () => void rows.push(...(await telemetryRows(log))));
if (only.has('10')) await section('10', async () => void rows.push(...(await pushBytesRows(log))));
if (only.has('11')) {
  log('starting a large:5000 simulator for row 11a (the engine flapping, the timeline off and on)');
  const host = await startSimHost({ scenarios: ['large:5000'] });
  try {
    const sim = host.sims[0];
    if (sim) await section('11', async () => void rows.push(...(await timelineRows(sim, log))));
  } finally {
    await host.close();
  }
  notes.push({
    group: '11',
    text: `Row 11a alternates runs with the timeline off and on (3 each, 8 s of one flip every 100 ms among 50 of the 5,000 nodes) and compares the medians of their longest event-loop delays (monitorEventLoopDelay); its per-change cost and rows 11b and 11c come from one simulated day on a virtual clock, with this thread's CPU time beside the wall time.${(os.loadavg()[0] ?? 0) > os.cpus().length ? ` Measured under load (load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores): wall times include waits for a core, and the on/off difference is within the runs' spread.` : ''}`,
  });
}

rows.sort((x, y) => x.id.localeCompare(y.id, 'en', { numeric: true }));
const cpus = os.cpus();
const machine = `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}`;
const seconds = (performance.now() - started) / 1000;
const loadAtEnd = os.loadavg();
if (only.has('2'))
  notes.push({
    group: '2',
    text: 'Row 2 runs our side with time compressed ×20 (flip every 200 ms = 4 s simulated, sim bookmarks every 3 s, watches 12–15 s, stall timeout 4.5 s, write coalescing 250 ms); the poller is measured over 3 real passes and scaled to 20 passes per 10 minutes.',
  });
if (only.has('4'))
  notes.push({
    group: '4',
    text: 'The simulators run in a separate process on the same machine; "on our CPU" is how much of the longest stall this process (all its threads) actually computed; the rest it waited for a core.',
  });
if (only.has('5'))
  notes.push({
    group: '5',
    text: 'Row 5 has no measured baseline: a poller that lists every 30 s notices a flip 15 s later on average (30 s at worst), plus one full list.',
  });
if (only.has('6'))
  notes.push({
    group: '6',
    text: `Row 6 starts a fresh process per run for both sides (the built CLI, and the plain list built the same way with Vite); peak RSS is the process's own high-water mark (Linux VmHWM); 6c/6d put a loopback proxy in front of the simulator that passes or drops Accept-Encoding, so only the encoding differs (the sim gzips responses over 128 KiB, as kube-apiserver does); 6f/6g put scan beside a raw list (plain https and JSON.parse, pages of 500, no gzip asked: the least any tool pays), 6g against a simulator that answers each request ${SIM_LATENCY_MS} ms late, as a real API server's round trip and admission cost per page; 6h puts both behind the proxy that drops Accept-Encoding, so neither side's answers are gzipped (scan asks for gzip, as kubectl and client-node do; the raw list does not).`,
  });
if (only.has('12')) {
  const cores = os.cpus().length;
  const busy = Math.max(loadAtStart[0] ?? 0, loadAtEnd[0] ?? 0) > cores;
  notes.push({
    group: '12',
    text: `Row 12${busy ? ` was measured under load (load average ${loadAtStart[0]?.toFixed(1)} → ${loadAtEnd[0]?.toFixed(1)} on ${cores} cores: wall times and stalls include waits for a core; "on our CPU" is this process's own part)` : ''}: the simulators (4 × ${sizes.nodes.toLocaleString('en')} nodes, 3 of them with ${sizes.pods.toLocaleString('en')} pods) run in one child process on the same machine; 12b/12c replace 100 pods a second and flip a GPU node every 500 ms for 30 s after the sync; 12b's per-GPU-pod figure includes what the pods watch costs once (its client and cache), spread over the ${sizes.gpuPods.toLocaleString('en')} GPU pods; 12e starts the built desktop app under the Electron double (as row 4c) on the first cluster, twice with free GPUs on and twice off.`,
  });
}
if (only.has('10'))
  notes.push({
    group: '10',
    text: "Row 10 counts every frame of browser mode's event stream from the flip until 2 s without one (heartbeats aside); Electron's IPC carries the same JSON without the SSE id and event lines.",
  });
const text = [
  `GPU Fleet bench — ${startedAt.slice(0, 16).replace('T', ' ')} UTC — ${machine} — ${seconds.toFixed(0)} s — load average ${loadAtStart[0]?.toFixed(1)} → ${loadAtEnd[0]?.toFixed(1)}`,
  '',
  markdownTable(rows),
  '',
  ...notes.map((n) => `- ${n.text}`),
].join('\n');
process.stdout.write(`${text}\n`);
const out = path.join(ROOT, 'bench/results/latest.json');
const read = fs.existsSync(out) ? parseResults(fs.readFileSync(out, 'utf8')) : null;
// Row 4c is replaced as a row (its group 4 keeps 4a and 4b when it runs alone), its notes as group 4c.
const previous =
  read && shellStall
    ? {
        ...read,
        rows: read.rows.filter((r) => r.id !== '4c'),
        notes: read.notes.filter((n) => n.group !== '4c'),
      }
    : read;
const run = {
  at: startedAt,
  machine,
  groups: [...only].sort(),
  seconds,
  load: { start: loadAtStart, end: loadAtEnd },
  ...measuredCode,
};
const merged = mergeResults(previous, run, rows, notes);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(merged, null, 2)}\n`);
log(
  `wrote ${path.relative(ROOT, out)} (${rows.length} rows measured now, ${merged.rows.length - rows.length} kept)`,
);
writeDocsTable(ROOT);
log('regenerated the table of docs/performance.md from it');
process.exit(0);
