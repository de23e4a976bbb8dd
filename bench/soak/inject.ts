/**
 * The soak's fault injector: for one simulated cluster, one event at a time (events never overlap within
 * a context, so every alert belongs to exactly one event), on a node never used before (so the flap
 * detector's memory never mixes events). Every loop is bounded by `endAt`.
 */
import type { RemoteSim } from '../lib/sim-remote.ts';
import type { EventKind, Injected } from './truth.ts';

export interface InjectTiming {
  holdDownMs: number;
  /** Time after each event before the next one starts. */
  gapMs: number;
}

/** Seeded PRNG (mulberry32), so a soak can be replayed with --seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The GPU nodes of large:N that start Ready (see sim/scenarios/large.ts: kinds 0 and 8 are CPU nodes). */
export function readyGpuNodes(n: number): string[] {
  const width = String(n).length;
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    if (i % 10 !== 0 && i % 10 !== 8 && i % 37 !== 5) out.push(`node-${String(i).padStart(width, '0')}`);
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function injectUntil(
  sim: RemoteSim,
  context: string,
  nodes: string[],
  endAt: number,
  t: InjectTiming,
  random: () => number,
  record: (e: Injected) => void,
): Promise<number> {
  const pool = [...nodes];
  let flips = 0;
  const set = async (node: string, ready: boolean) => {
    flips++;
    await sim.control(
      'setNodeReady',
      node,
      ready ? 'True' : 'False',
      ready ? 'KubeletReady' : 'KubeletNotReady',
    );
  };
  const between = (lo: number, hi: number) => Math.round(lo + random() * (hi - lo));
  while (Date.now() < endAt && pool.length > 0) {
    const node = pool.splice(Math.floor(random() * pool.length), 1)[0] as string;
    const r = random();
    const kind: EventKind = r < 0.45 ? 'blip' : r < 0.8 ? 'outage' : 'flapper';
    let downMs = 0;
    if (kind === 'blip') {
      downMs = between(150, t.holdDownMs * 0.4);
      await set(node, false);
      await sleep(downMs);
      await set(node, true);
    } else if (kind === 'outage') {
      downMs = between(t.holdDownMs * 2, t.holdDownMs * 2.5);
      await set(node, false);
      await sleep(downMs);
      await set(node, true);
    } else {
      // down, up, down, up: the third change makes it a flapper; each state lasts well past the coalescing.
      for (const ready of [false, true, false, true]) {
        await set(node, ready);
        await sleep(600);
      }
      downMs = 1200;
    }
    record({ context, node, kind, downMs });
    await sleep(t.gapMs);
  }
  return flips;
}
