/**
 * Child-process entry for row 12 (free GPUs at 100,000 pods), in a process of its own as the engine host
 * runs the engine (the simulators run in sim-host.ts). Prints one JSON line.
 * - sync: time from setContexts to the first inventory and the first known free GPUs, and the longest
 *   stall meanwhile; or the same-run baseline, a raw paged list of the nodes and live pods (raw-list.ts).
 * - churn: one engine (free GPUs on or off) synced, then `seconds` of node flips and pod churn driven
 *   through the sim's controls: the longest stall over it all, and the heap retained at the end
 *   (full GCs, against the heap before the engine started).
 *
 * argv[2]: JSON FreeProbeArgs. Run with --expose-gc.
 */
import { FleetEngine } from '../../main/fleet/engine.ts';
import { findContext, loadKubeconfig } from '../../main/kube/kubeconfig.ts';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';
import { rawNodesAndPods, rawTargets } from '../baselines/raw-list.ts';
import type { HostedSim } from './sim-host.ts';
import { RemoteSim } from './sim-remote.ts';
import { StallMeter } from './stall.ts';

export interface FreeProbeArgs {
  task: 'sync' | 'churn';
  kubeconfig: string;
  /** sync: ours (free GPUs on), or the raw list. */
  side?: 'ours' | 'raw';
  runs?: number;
  /** churn: the sim to drive, free GPUs on or off, how long, and how often (ms) a node flips. */
  sim?: HostedSim;
  freeGpus?: boolean;
  seconds?: number;
  flipEveryMs?: number;
  /** churn: pods replaced a second. */
  podsPerSecond?: number;
}

export interface FreeSyncProbe {
  ms: number[];
  stallMs: number[];
  stallCpuMs: number[];
}

export interface FreeChurnProbe {
  syncMs: number;
  stallMs: number;
  stallCpuMs: number;
  /** Of that CPU, the event loop's own thread's (the rest: GC threads, gzip inflated in libuv's pool). */
  stallThreadMs: number;
  heapBytes: number;
  gpuPodsKept: number;
  podsChurned: number;
  gpuPodsChurned: number;
  flips: number;
}

function contextOf(file: string, name: string): ResolvedContext {
  const load = loadKubeconfig({ explicitPath: file });
  const ctx = load.kind === 'loaded' ? findContext(load, 'sim-admin') : null;
  if (!ctx) throw new Error(`no sim-admin context in ${file}`);
  return { ...ctx, name };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** An engine on one context, resolved once its inventory is in and (free GPUs on) its figures known. */
async function syncedEngine(
  kubeconfig: string,
  freeGpus: boolean,
): Promise<{ engine: FleetEngine; ms: number }> {
  const engine = new FleetEngine({ freeGpus: () => freeGpus });
  const t0 = performance.now();
  const ms = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bench: no free GPUs within 300 s')), 300_000);
    let inventory = false;
    const off = engine.on((e) => {
      if (e.type === 'inventory') inventory = true;
      if (!inventory || (e.type !== 'snapshot' && e.type !== 'inventory')) return;
      const free = engine.snapshot().contexts[0]?.free;
      if (freeGpus && free?.state !== 'known') return;
      clearTimeout(timer);
      off();
      resolve(performance.now() - t0);
    });
    engine.setContexts([contextOf(kubeconfig, 'c0')]);
  });
  return { engine, ms };
}

async function sync(a: FreeProbeArgs): Promise<FreeSyncProbe> {
  const out: FreeSyncProbe = { ms: [], stallMs: [], stallCpuMs: [] };
  const target = rawTargets(a.kubeconfig, 'sim-admin')[0];
  if (!target) throw new Error('no sim-admin context');
  for (let r = 0; r < (a.runs ?? 1); r++) {
    await settle(300);
    const meter = new StallMeter();
    meter.start();
    const t0 = performance.now();
    let stop = () => {};
    if (a.side === 'raw') await rawNodesAndPods(target);
    else {
      const { engine } = await syncedEngine(a.kubeconfig, true);
      stop = () => engine.stop();
    }
    out.ms.push(performance.now() - t0);
    await settle(300);
    const stall = meter.stop();
    out.stallMs.push(stall.maxMs);
    out.stallCpuMs.push(stall.cpuMs);
    stop();
  }
  return out;
}

async function churn(a: FreeProbeArgs): Promise<FreeChurnProbe> {
  if (!a.sim) throw new Error('churn needs the sim');
  const sim = new RemoteSim(a.sim);
  const freeGpus = a.freeGpus ?? true;
  // The first GPU nodes of large:N (node 0 has no GPU), as row 2 flips them.
  const flipping = ((await sim.control('listNodeNames')) as string[]).sort().slice(1, 5);
  const before = heapUsed();
  const meter = new StallMeter();
  meter.start();
  const { engine, ms } = await syncedEngine(a.kubeconfig, freeGpus);
  let flips = 0;
  let podsChurned = 0;
  let gpuPodsChurned = 0;
  const flipEvery = a.flipEveryMs ?? 500;
  const perTick = Math.max(1, Math.round(((a.podsPerSecond ?? 100) * flipEvery) / 1000));
  const end = performance.now() + (a.seconds ?? 30) * 1000;
  while (performance.now() < end) {
    const name = flipping[Math.floor(flips / 2) % flipping.length] as string;
    const status = flips % 2 === 1 ? 'True' : 'False';
    const t = performance.now();
    await sim.control('setNodeReady', name, status, status === 'True' ? 'KubeletReady' : 'KubeletNotReady');
    gpuPodsChurned += (await sim.control('churnPods', perTick)) as number;
    podsChurned += perTick;
    flips++;
    await settle(Math.max(0, flipEvery - (performance.now() - t)));
  }
  await settle(1000);
  const stall = meter.stop();
  const gpuPodsKept = keptPods(engine);
  const heapBytes = heapUsed() - before;
  engine.stop();
  sim.close();
  return {
    syncMs: ms,
    stallMs: stall.maxMs,
    stallCpuMs: stall.cpuMs,
    stallThreadMs: stall.threadMs ?? Number.NaN,
    heapBytes,
    gpuPodsKept,
    podsChurned,
    gpuPodsChurned,
    flips,
  };
}

/** GPU slots in use plus Pending GPU pods (each of the scenario's GPU pods asks for one slot). */
function keptPods(engine: FleetEngine): number {
  const free = engine.snapshot().contexts[0]?.free;
  if (!free) return 0;
  return free.products.reduce((s, p) => s + (p.in_use ?? 0), 0) + (free.pending?.count ?? 0);
}

const args = JSON.parse(process.argv[2] ?? '{}') as FreeProbeArgs;
const result = args.task === 'sync' ? await sync(args) : await churn(args);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
