/**
 * Row 2: what the API server pays over 10 simulated minutes of flapping at 5,000 nodes — our engine with
 * write-back vs a naive poller (list everything every 30 s, write status every pass).
 *
 * Time is compressed ×20 for our side: a GPU node flips every 200 ms (the `flapping` scenario's 4 s), the
 * sim's bookmarks come every 3 s (60 s), watches end after 12–15 s (240–300 s), the stall timeout is 4.5 s
 * (90 s) and write-back's coalescing window 250 ms (5 s); 30 s of flapping then 6 s of quiet (2 minutes).
 * Kubelet status reports are modelled (bench/lib/kubelet-reports.ts): every node's kubelet writes its
 * .status once per nodeStatusReportFrequency (5 min → 15 s real) even when nothing changed, spread evenly
 * over the flapping part; the quiet part has none (6 s real is less than half an interval).
 * The poller's cost does not depend on time: 3 real passes are measured and scaled to 20 per 10 minutes.
 */
import type { WriteEvent } from '../../main/writeback/index.ts';
import { ensureInventoryObject, naivePass } from '../baselines/naive-poller.ts';
import { kubeConfigFor } from '../baselines/plain-list.ts';
import { startWriter } from '../lib/engine-sync.ts';
import { settled, sleep, startFlipping } from '../lib/flipper.ts';
import { startKubeletReports } from '../lib/kubelet-reports.ts';
import type { LogEntry, RemoteSim } from '../lib/sim-remote.ts';
import { bytes } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

export const COMPRESSION = 20;
const FLAP_MS = 4000 / COMPRESSION;
const FLAP_REAL_MS = (10 * 60_000) / COMPRESSION;
const QUIET_REAL_MS = (2 * 60_000) / COMPRESSION;
/** The kubelet's nodeStatusReportFrequency default (5 min), compressed as the rest. */
const REPORT_MS = (5 * 60_000) / COMPRESSION;

const isList = (e: LogEntry) =>
  e.method === 'GET' && /^\/api\/v1\/nodes\?/.test(e.path) && !/watch=/.test(e.path);
const isWatch = (e: LogEntry) => /watch=/.test(e.path);
const isWrite = (e: LogEntry) => e.method !== 'GET';
const sum = (xs: LogEntry[]) => xs.reduce((s, e) => s + e.bytes, 0);

export async function trafficRows(sim: RemoteSim, log: (s: string) => void): Promise<Row[]> {
  const ours = sim.context('sim-admin', 'large');
  await ensureInventoryObject(kubeConfigFor(sim.kubeconfigPath, 'sim-revocable'));
  log(
    `row 2: our engine + write-back over 12 simulated minutes (${(FLAP_REAL_MS + QUIET_REAL_MS) / 1000} s real)`,
  );
  const { engine, writes, writing, stop } = await startWriter(
    ours,
    { watchSeconds: [240 / COMPRESSION, 300 / COMPRESSION], stallTimeoutMs: 90_000 / COMPRESSION },
    { minIntervalMs: 5000 / COMPRESSION },
  );
  // The first status and ConfigMap writes (creating them) belong to start-up, not to the flapping.
  await settled(() => writes.length, writing);
  const mine = async () => (await sim.requestLog()).filter((e) => e.user === 'sim-admin');
  const atSync = (await mine()).length;
  const written = (target: WriteEvent['target']) =>
    writes.filter((w) => w.action === 'written' && w.target === target).length;
  const w0 = { status: written('status'), configmap: written('configmap') };
  let inventories = 0;
  engine.on((e) => e.type === 'inventory' && inventories++);
  const stopReports = await startKubeletReports(sim, REPORT_MS);
  const stopFlipping = startFlipping(sim, FLAP_MS);
  await sleep(FLAP_REAL_MS);
  await stopFlipping();
  const kubelet = await stopReports();
  // Let the last flip's write land (an apply of 4,000 nodes takes the sim a while) before the quiet part.
  await settled(() => writes.length, writing);
  const atQuiet = (await mine()).length;
  const w1 = { status: written('status'), configmap: written('configmap') };
  await sleep(QUIET_REAL_MS);
  const w2 = { status: written('status'), configmap: written('configmap') };
  stop();
  await sleep(500);
  const all = await mine();
  const sync = all.slice(0, atSync);
  const flapping = all.slice(atSync, atQuiet);
  const quiet = all.slice(atQuiet);

  log('row 2: the naive poller, 3 passes (scaled to 20 per 10 minutes)');
  const kc = kubeConfigFor(sim.kubeconfigPath, 'sim-revocable');
  await sim.control('resetRequestLog');
  for (let i = 0; i < 3; i++) await naivePass(kc);
  const naive = (await sim.requestLog()).filter((e) => e.user === 'sim-revocable');
  const scale = 20 / 3;
  const n = {
    requests: naive.length * scale,
    lists: naive.filter(isList).length * scale,
    writes: naive.filter(isWrite).length * scale,
    bytes: sum(naive) * scale,
  };
  const steady = [...flapping, ...quiet];
  const perMin = (x: number, minutes: number) => (x / minutes).toFixed(1);
  return [
    {
      id: '2a',
      measure: 'API requests over 10 simulated minutes of flapping, 5,000 nodes',
      ours: `${flapping.length} (${flapping.filter(isWatch).length} watches, ${flapping.filter(isList).length} LISTs, ${flapping.filter(isWrite).length} writes, ${flapping.length - flapping.filter(isWatch).length - flapping.filter(isList).length - flapping.filter(isWrite).length} GETs); start-up (list, first writes) ${sync.length} more`,
      baseline: `${Math.round(n.requests)} (${Math.round(n.lists)} LIST pages, ${Math.round(n.writes)} status writes)`,
      target: '–',
      met: null,
      raw: { flapping, sync: sync.length, naivePerPass: naive.length / 3 },
    },
    {
      id: '2b',
      measure: 'Bytes sent by the API server over those 10 minutes',
      // The sim logs a watch when it ends, so one open across the end of the flapping lands in the quiet part.
      ours: `${bytes(sum(flapping))} (start-up ${bytes(sum(sync))}; ${bytes(sum(quiet))} more in the 2 quiet minutes, from watches open across the end of the flapping); kubelet status reports modelled: ${kubelet.reports} (every node every 15 s real; ${kubelet.late} of ${Math.round(kubelet.seconds * 10)} ticks found the sim still busy), ${inventories} inventories`,
      baseline: bytes(n.bytes),
      target: '–',
      met: null,
      raw: { ours: sum(flapping), quiet: sum(quiet), sync: sum(sync), naive: n.bytes, kubelet, inventories },
    },
    {
      id: '2c',
      measure: 'Steady-state LIST requests per minute (flapping and quiet)',
      ours: perMin(steady.filter(isList).length, 12),
      baseline: perMin(n.lists, 10),
      target: '0 per minute',
      met: steady.filter(isList).length === 0,
      raw: { ours: steady.filter(isList) },
    },
    {
      id: '2d',
      measure: 'Status writes per minute: while flapping / quiet',
      ours: `${perMin(w1.status - w0.status, 10)} / ${perMin(w2.status - w1.status, 2)} (ConfigMap: ${perMin(w1.configmap - w0.configmap, 10)} / ${perMin(w2.configmap - w1.configmap, 2)}); every write is a real change, at most one per 5 s window and one in flight (the sim's apply time is not compressed)`,
      baseline: `${perMin(n.writes, 10)} / ${perMin(n.writes, 10)} (every pass)`,
      target: 'only on change (0 when quiet)',
      met:
        w2.status === w1.status &&
        w2.configmap === w1.configmap &&
        quiet.filter(isWrite).length === 0 &&
        writes.every((w) => w.action !== 'written' || w.reason === 'changed' || w.reason === 'created'),
      raw: { w0, w1, w2, events: writes, quietRequests: quiet },
    },
  ];
}
