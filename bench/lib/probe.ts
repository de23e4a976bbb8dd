/**
 * Child-process entry for the measurements that must not share a process with anything else (the
 * simulators run in sim-host.ts): sync time and event-loop stalls, ours vs client-node's plain list, and
 * retained heap per node, ours vs client-node's informer. Prints one JSON line with the result.
 *
 * argv[2]: JSON ProbeArgs. Run with --expose-gc (and --no-flush-bytecode: see heap()) for the heap tasks.
 */
import type { EngineOptions } from '../../main/fleet/engine.ts';
import { findContext, loadKubeconfig } from '../../main/kube/kubeconfig.ts';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';
import { kubeConfigFor, plainList } from '../baselines/plain-list.ts';
import { engineHolder, type Holder, informerHolder, watcherHolder } from './holders.ts';
import { StallMeter } from './stall.ts';

export interface ProbeArgs {
  task: 'sync-ours' | 'sync-plain' | 'heap';
  /** sync: one kubeconfig per cluster, synced at once. heap: a small and a large cluster. */
  kubeconfigs: string[];
  runs?: number;
  /** heap: the node counts of the two clusters. */
  nodes?: [number, number];
  /** heap: what holds the nodes. */
  holder?: 'engine' | 'watcher' | 'informer';
  /** sync-ours: engine options (e.g. a what-if page size). */
  engine?: EngineOptions;
}

export interface SyncProbe {
  ms: number[];
  stallMs: number[];
  stallCpuMs: number[];
  /** Of stallCpuMs, the event loop's own thread's. */
  stallThreadMs: number[];
}

export interface HeapProbe {
  /** Retained bytes with the small and the large cluster held. */
  bytes: [number, number];
  nodes: [number, number];
}

export function contextOf(file: string, name: string): ResolvedContext {
  const load = loadKubeconfig({ explicitPath: file });
  const ctx = load.kind === 'loaded' ? findContext(load, 'sim-admin') : null;
  if (!ctx) throw new Error(`no sim-admin context in ${file}`);
  return { ...ctx, name };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function sync(a: ProbeArgs, once: () => Promise<() => void>): Promise<SyncProbe> {
  const out: SyncProbe = { ms: [], stallMs: [], stallCpuMs: [], stallThreadMs: [] };
  for (let r = 0; r < (a.runs ?? 1); r++) {
    const meter = new StallMeter();
    meter.start();
    const t0 = performance.now();
    const stop = await once();
    out.ms.push(performance.now() - t0);
    // Work scheduled right after the first inventory (coalesced snapshots) belongs to the sync too.
    await settle(300);
    const stall = meter.stop();
    out.stallMs.push(stall.maxMs);
    out.stallCpuMs.push(stall.cpuMs);
    out.stallThreadMs.push(stall.threadMs ?? Number.NaN);
    stop();
    await settle(200);
  }
  return out;
}

function syncOurs(a: ProbeArgs): Promise<SyncProbe> {
  const contexts = a.kubeconfigs.map((f, i) => contextOf(f, `c${i}`));
  return sync(a, async () => {
    const h = await engineHolder(contexts, false, a.engine);
    return h.stop;
  });
}

function syncPlain(a: ProbeArgs): Promise<SyncProbe> {
  const kcs = a.kubeconfigs.map((f) => kubeConfigFor(f));
  return sync(a, async () => {
    await Promise.all(kcs.map((kc) => plainList(kc)));
    return () => undefined;
  });
}

const gc = (): void => {
  const f = (globalThis as { gc?: () => void }).gc;
  if (!f) throw new Error('run with --expose-gc');
  f();
};

/** Heap used once full collections stop changing it (within 16 KiB), or after 10 rounds. */
function settledHeap(): number {
  let last = Number.NaN;
  for (let i = 0; i < 10; i++) {
    gc();
    gc();
    const now = process.memoryUsage().heapUsed;
    if (Math.abs(now - last) < 16 * 1024) return now;
    last = now;
  }
  return last;
}

/**
 * Waits until a stopped holder's nodes are collected: a holder still reachable after stop() would be
 * counted in the next measurement's "before" and freed in the middle of it (a negative slope).
 */
async function released(ref: WeakRef<object>, what: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    gc();
    if (ref.deref() === undefined) return;
    await settle(100);
  }
  throw new Error(`bench: the ${what} still holds its nodes 5 s after stop()`);
}

/**
 * Retained heap with the small, then the large cluster held; the difference cancels fixed costs. The
 * child runs with --no-flush-bytecode: V8 otherwise drops the bytecode of functions left idle over a few
 * collections, and the forced collections here aged the start-up code enough that ~2 MB of it was freed
 * between the large cluster's "before" and "after" (the watcher read −81 B/node; 480 B/node without the
 * flushing, same probe). Each size starts with the previous holder collected and the heap settled.
 */
async function heap(a: ProbeArgs): Promise<HeapProbe> {
  const [small, large] = a.kubeconfigs;
  if (!small || !large || !a.nodes) throw new Error('heap needs two kubeconfigs and their node counts');
  const what = a.holder ?? 'engine';
  const hold = (file: string): Promise<Holder> => {
    if (what === 'informer') return informerHolder(kubeConfigFor(file));
    if (what === 'watcher') return watcherHolder(contextOf(file, 'c0'));
    return engineHolder([contextOf(file, 'c0')], true);
  };
  /** Holds the cluster, measures, stops; the holder is reachable only through the WeakRef returned. */
  const holdAndMeasure = async (file: string, before: number) => {
    const h = await hold(file);
    await settle(500);
    const bytes = settledHeap() - before;
    h.stop();
    return { bytes, ref: new WeakRef(h.held) };
  };
  const measure = async (file: string) => {
    await settle(200);
    const before = settledHeap();
    const { bytes, ref } = await holdAndMeasure(file, before);
    await released(ref, what);
    return bytes;
  };
  // A warm-up first, so code compiled on first use is not counted as cache.
  await measure(small);
  const bytesSmall = await measure(small);
  const bytesLarge = await measure(large);
  return { bytes: [bytesSmall, bytesLarge], nodes: a.nodes };
}

const args = JSON.parse(process.argv[2] ?? '{}') as ProbeArgs;
const tasks = { 'sync-ours': syncOurs, 'sync-plain': syncPlain, heap };
const result = await tasks[args.task](args);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
