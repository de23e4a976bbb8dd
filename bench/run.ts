/**
 * `npm run bench`: every row of issue 8 next to a baseline measured in the same run against the simulator
 * over real HTTPS. Prints a Markdown table (and notes) on stdout, progress on stderr, and writes the raw
 * figures to bench/results/latest.json. Asserts nothing.
 *
 *   node --expose-gc --import tsx bench/run.ts [--only 1,2,3,4,5,6,7,8]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startSimHost } from './lib/sim-remote.ts';
import { markdownTable, type Row } from './lib/table.ts';
import { controllerSourceRows } from './rows/controller-source.ts';
import { heapRow } from './rows/heap.ts';
import { latencyRows } from './rows/latency.ts';
import { rendererRows } from './rows/renderer.ts';
import { scanRows } from './rows/scan.ts';
import { syncRows } from './rows/sync.ts';
import { trafficRows } from './rows/traffic.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const RENDERER = path.join(ROOT, '.vite/renderer/main_window/index.html');

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = new Set((values.only ?? '1,2,3,4,5,6,7,8').split(',').map((s) => s.trim()));
const started = performance.now();
const log = (s: string) =>
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${s}\n`);

const rows: Row[] = [];
const notes: string[] = [];

/** One failing part must not lose the others: it becomes a row that says what went wrong. */
async function section(ids: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    log(`rows ${ids} failed: ${why}`);
    rows.push({
      id: ids,
      measure: 'could not be measured',
      ours: `error: ${why}`,
      baseline: '–',
      target: '–',
      met: null,
      raw: {},
    });
  }
}

if (only.has('1') || only.has('3') || only.has('4') || only.has('6')) {
  log('starting simulators: 3 × large:5000, large:1000, homelab (in a child process)');
  const host = await startSimHost({
    scenarios: ['large:5000', 'large:5000', 'large:5000', 'large:1000', 'homelab'],
  });
  try {
    const [a, b, c, small, homelab] = host.sims.map((s) => s.kubeconfigPath) as [
      string,
      string,
      string,
      string,
      string,
    ];
    if (only.has('1') || only.has('4'))
      await section('1, 4', async () => {
        const r = await syncRows([a, b, c], log);
        rows.push(...r.rows.filter((x) => only.has(x.id[0] ?? '')));
        notes.push(...r.notes);
      });
    if (only.has('3')) await section('3', async () => void rows.push(await heapRow(small, a, log)));
    if (only.has('6')) await section('6', async () => void rows.push(...(await scanRows(homelab, a, log))));
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

if (only.has('8')) {
  log('starting a large:5000 simulator for row 8 (tray source auto vs nodes, time compressed ×20)');
  const host = await startSimHost({ scenarios: ['large:5000'], bookmarkIntervalMs: 3000 });
  try {
    const sim = host.sims[0];
    if (sim) await section('8', async () => void rows.push(...(await controllerSourceRows(sim, log))));
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

rows.sort((x, y) => x.id.localeCompare(y.id, 'en', { numeric: true }));
const cpus = os.cpus();
const machine = `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}`;
const seconds = (performance.now() - started) / 1000;
const text = [
  `GPU Fleet bench — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — ${machine} — ${seconds.toFixed(0)} s`,
  '',
  markdownTable(rows),
  '',
  ...notes.map((n) => `- ${n}`),
  '- Row 2 runs our side with time compressed ×20 (flip every 200 ms = 4 s simulated, sim bookmarks every 3 s, watches 12–15 s, stall timeout 4.5 s, write coalescing 250 ms); the poller is measured over 3 real passes and scaled to 20 passes per 10 minutes.',
  '- The simulators run in a separate process on the same machine; "on our CPU" is how much of the longest stall this process (all its threads) actually computed; the rest it waited for a core.',
  '- Row 5 has no measured baseline: a poller that lists every 30 s notices a flip 15 s later on average (30 s at worst), plus one full list.',
].join('\n');
process.stdout.write(`${text}\n`);
const out = path.join(ROOT, 'bench/results/latest.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(
  out,
  `${JSON.stringify({ at: new Date().toISOString(), machine, seconds, rows, notes }, null, 2)}\n`,
);
log(`wrote ${path.relative(ROOT, out)}`);
process.exit(0);
