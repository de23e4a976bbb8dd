/**
 * Fault matrix, inventory memory: "last seen" labels belong to one machine. A node deleted and re-created
 * under the same name (a reinstalled host, a replaced VM) must not show the old machine's GPUs while it
 * waits for GPU Feature Discovery to label it; a node gone from a relist is forgotten too. Through the
 * real watch path against the simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSim } from '../../sim/index.ts';
import { rawNode } from '../fixtures/nodes.ts';
import { type EngineRun, liveOnSim } from './harness.ts';

let sim: RunningSim;
let run: EngineRun;

beforeAll(async () => {
  ({ sim, run } = await liveOnSim());
});
afterAll(async () => {
  run?.stop();
  await sim?.close();
});

const entry = (name: string) => run.ctx().inventory?.nodes.find((n) => n.name === name);
const T4 = 'Tesla-T4';

/** GFD labels the node; resolves once the inventory shows them. */
async function label(name: string): Promise<void> {
  sim.control.setNodeLabels(name, { 'nvidia.com/gpu.product': T4, 'nvidia.com/gpu.count': '2' });
  await run.waitFor(() => entry(name)?.product === T4, `${name} labelled`);
}
/** A freshly joined machine: NFD saw an NVIDIA PCI device, GFD has not labelled it yet. */
const newMachine = (name: string) => {
  const node = rawNode({
    name,
    labels: { 'feature.node.kubernetes.io/pci-10de.present': 'true' },
    ready: 'True',
  });
  // A new object: the API server gives it a uid of its own.
  delete (node.metadata as { uid?: string }).uid;
  return node;
};

describe('last-seen labels', () => {
  it('are remembered while the node lives: its labels vanish, last seen shows them', async () => {
    await label('nuc2');
    sim.control.setNodeLabels('nuc2', { 'nvidia.com/gpu.product': null, 'nvidia.com/gpu.count': null });
    await run.waitFor(() => entry('nuc2')?.product === null, 'nuc2 unlabeled');
    expect(entry('nuc2')?.last_seen).toEqual({ product: T4, count: 2, memory: null });
  });

  it('are forgotten when the node is deleted: a re-created node does not show the old GPUs', async () => {
    await label('nuc1');
    sim.control.removeNode('nuc1');
    await run.waitFor(() => entry('nuc1') === undefined, 'nuc1 gone from the inventory');
    sim.control.addNode(newMachine('nuc1'));
    await run.waitFor(() => entry('nuc1') !== undefined, 'the new nuc1 in the inventory');
    expect(entry('nuc1')?.product).toBeNull();
    expect(entry('nuc1')?.last_seen ?? null).toBeNull();
  });

  it('are forgotten when a relist no longer has the node', async () => {
    await label('omen');
    // The watch is cut and history compacted while the node goes: the engine only learns it from a relist.
    sim.control.stallWatches(true);
    sim.control.removeNode('omen');
    sim.control.compact();
    sim.control.stallWatches(false);
    await sim.control.restart();
    await run.waitFor(() => entry('omen') === undefined, 'omen gone after the relist');
    sim.control.addNode(newMachine('omen'));
    await run.waitFor(() => entry('omen') !== undefined, 'the new omen in the inventory');
    expect(entry('omen')?.last_seen ?? null).toBeNull();
  });

  it('are forgotten when the node was replaced while the watch was down (a new uid, the same name)', async () => {
    await label('omen2');
    sim.control.stallWatches(true);
    sim.control.removeNode('omen2');
    sim.control.addNode(newMachine('omen2'));
    sim.control.compact();
    sim.control.stallWatches(false);
    await sim.control.restart();
    await run.waitFor(() => entry('omen2')?.product === null, 'the new omen2 after the relist');
    expect(entry('omen2')?.last_seen ?? null).toBeNull();
  });
});
