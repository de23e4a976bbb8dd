/** The first build of a large cluster: a slice of nodes per turn, then the whole build from warm memos. */
import { afterEach, describe, expect, it } from 'vitest';
import type { LastSeenLabels } from '../../common/inventory.ts';
import { rawNode } from '../../test/fixtures/nodes.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { scanContext } from '../cli/commands/scan.ts';
import { buildInventory, rememberAllLabels } from '../inventory/index.ts';
import { type NodeFacts, trimNode } from '../inventory/node-facts.ts';
import { ContextClient } from '../kube/context-client.ts';
import { ContextMonitor } from './context-monitor.ts';
import { FleetEngine } from './engine.ts';
import { BUILD_SLICE, FIRST_SLICE, primeFirstBuild, SLICED_BUILD_MIN } from './first-build.ts';

const gpuNode = (i: number): NodeFacts => {
  const f = trimNode(
    rawNode({
      name: `gpu-${String(i).padStart(4, '0')}`,
      labels: { 'nvidia.com/gpu.product': 'NVIDIA-A100', 'nvidia.com/gpu.count': '8' },
      capacity: { 'nvidia.com/gpu': '8' },
    }),
  );
  if (f === null) throw new Error('fixture did not trim');
  return f;
};
const turn = () => new Promise<void>((r) => setImmediate(r));

describe('primeFirstBuild', () => {
  it('derives one slice per turn (a small one first), never in the caller’s own task', async () => {
    const nodes = Array.from({ length: FIRST_SLICE + BUILD_SLICE * 2 + 10 }, (_, i) => gpuNode(i));
    const slices: number[] = [];
    let seen: ReadonlyMap<string, LastSeenLabels> = new Map();
    const done = primeFirstBuild(nodes, {
      current: (slice) => [...slice],
      remember: (slice) => {
        slices.push(slice.length);
        seen = rememberAllLabels(seen, slice);
        return seen;
      },
      slots: true,
      cancelled: () => false,
    });
    expect(slices).toEqual([]);
    await turn();
    expect(slices).toEqual([FIRST_SLICE]);
    expect(await done).toBe(true);
    expect(slices).toEqual([FIRST_SLICE, BUILD_SLICE, BUILD_SLICE, 10]);
    // Every node's labels are remembered, as one rememberAllLabels over all of them would.
    expect([...seen.keys()]).toEqual([...rememberAllLabels(new Map(), nodes).keys()]);
    expect(buildInventory(nodes, seen, 'x').total_gpus).toBe(8 * nodes.length);
  });

  it('runs `finish` in a turn of its own after the last slice, and resolves in a turn after it', async () => {
    const nodes = Array.from({ length: BUILD_SLICE + 10 }, (_, i) => gpuNode(i));
    let turnNo = 0;
    let counting = true;
    const bump = () => {
      turnNo++;
      if (counting) setImmediate(bump);
    };
    setImmediate(bump);
    const at: string[] = [];
    const done = await primeFirstBuild(nodes, {
      current: (slice) => [...slice],
      remember: () => {
        at.push(`slice@${turnNo}`);
        return new Map();
      },
      slots: false,
      finish: () => at.push(`finish@${turnNo}`),
      cancelled: () => false,
    });
    at.push(`done@${turnNo}`);
    counting = false;
    expect(done).toBe(true);
    const turns = at.map((s) => Number(s.split('@')[1]));
    expect(at.map((s) => s.split('@')[0])).toEqual(['slice', 'slice', 'finish', 'done']);
    // Each in a later turn than the one before it.
    expect(turns.every((t, i) => i === 0 || t > (turns[i - 1] ?? t))).toBe(true);
  });

  it('does not run `finish` once cancelled', async () => {
    const nodes = Array.from({ length: 10 }, (_, i) => gpuNode(i));
    let stop = false;
    let finished = false;
    const done = await primeFirstBuild(nodes, {
      current: (slice) => [...slice],
      remember: () => {
        stop = true;
        return new Map();
      },
      slots: false,
      finish: () => {
        finished = true;
      },
      cancelled: () => stop,
    });
    expect(done).toBe(false);
    expect(finished).toBe(false);
  });

  it('skips nodes no longer current and stops when cancelled', async () => {
    const nodes = Array.from({ length: BUILD_SLICE * 3 }, (_, i) => gpuNode(i));
    const remembered: string[] = [];
    let stop = false;
    const done = await primeFirstBuild(nodes, {
      current: (slice) => slice.filter((f) => !f.name.endsWith('7')),
      remember: (slice) => {
        remembered.push(...slice.map((f) => f.name));
        stop = true;
        return new Map();
      },
      slots: false,
      cancelled: () => stop,
    });
    expect(done).toBe(false);
    expect(remembered).toHaveLength(FIRST_SLICE - FIRST_SLICE / 10);
    expect(remembered.some((n) => n.endsWith('7'))).toBe(false);
  });
});

describe('a monitor during its first build', () => {
  it('is not synced while it still shows the last-known inventory', async () => {
    const env = await startSimContext({ scenario: `large:${SLICED_BUILD_MIN + 200}` });
    const clock = new ManualClock();
    const lastKnown = {
      inventory: {
        observed_at: '2026-01-01T00:00:00Z',
        total_gpu_nodes: 0,
        ready_gpu_nodes: 0,
        total_gpus: 0,
        nodes: [],
      },
      history: [],
    };
    const m = new ContextMonitor(
      {
        context: 'c',
        server: null,
        makeClient: () => new ContextClient(env.context('sim-admin')),
        clock,
        lastKnown,
      },
      () => undefined,
    );
    const seen: boolean[] = [];
    try {
      m.start();
      await pollUntil(() => m.inventory !== lastKnown.inventory, 'the built inventory', {
        each: () => {
          clock.advance(0);
          if (m.synced) seen.push(m.inventory === lastKnown.inventory);
        },
        everyMs: 1,
      });
      expect(m.synced).toBe(true);
      // Synced never came with the last-known inventory still in place (the policy would judge it).
      expect(seen).not.toContain(true);
    } finally {
      m.stop();
      await env.cleanup();
    }
  });
});

describe('the first inventory of a large cluster', () => {
  const sims: SimContext[] = [];
  let engine: FleetEngine | null = null;
  afterEach(async () => {
    engine?.stop();
    engine = null;
    await Promise.all(sims.splice(0).map((s) => s.cleanup()));
  });

  it(`is built across turns for ${SLICED_BUILD_MIN}+ nodes, whole, with free GPUs unknown until then`, async () => {
    const env = await startSimContext({ scenario: `large:${SLICED_BUILD_MIN + 200}` });
    sims.push(env);
    const clock = new ManualClock();
    const e = new FleetEngine({ clock });
    engine = e;
    const free: string[] = [];
    let inventories = 0;
    e.on((ev) => {
      if (ev.type === 'inventory') inventories++;
      if (ev.type === 'snapshot') free.push(ev.snapshot.contexts[0]?.free?.state ?? 'none');
    });
    e.setContexts([env.context('sim-admin')]);
    const inv = () => e.snapshot().contexts[0]?.inventory;
    // Free-GPU figures of the listed nodes before their inventory is built would be made from
    // underived nodes in one task.
    const early: string[] = [];
    const look = () => {
      const c = e.snapshot().contexts[0];
      // (Before the node list ends the figures may be known over no nodes: the pods listed first.)
      if (c?.inventory == null) early.push(`${c?.free?.state}:${c?.free?.products.length ?? 0}`);
    };
    await pollUntil(() => inv() != null, 'the first inventory', {
      each: () => {
        clock.advance(0);
        look();
      },
      everyMs: 1,
    });
    await pollUntil(() => e.snapshot().contexts[0]?.free?.state === 'known', 'the free GPUs', {
      each: () => clock.advance(200),
    });
    expect(env.sim.control.listNodeNames().length).toBeGreaterThanOrEqual(SLICED_BUILD_MIN);
    // The same inventory as `scan` builds from the same nodes in one go.
    const scanned = await scanContext(env.context('sim-admin'));
    expect(inv()?.total_gpu_nodes).toBeGreaterThan(SLICED_BUILD_MIN / 2);
    expect(inv()?.nodes).toEqual(scanned.inventory?.nodes);
    expect(inventories).toBe(1);
    // No figures built from half-derived nodes: unknown (listing), then known.
    expect(free.filter((s) => s !== 'known').every((s) => s === 'unknown')).toBe(true);
    expect(early.length).toBeGreaterThan(0);
    expect(early.filter((s) => s.startsWith('known:') && s !== 'known:0')).toEqual([]);
  });
});
