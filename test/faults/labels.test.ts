/**
 * Fault matrix, garbage GPU facts arriving through the watch: malformed labels and resource quantities
 * become problem sentences on the node's entry; the inventory stays valid against its own schema, the
 * connection stays live, and nothing raises a ready-drop.
 */
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GpuInventoryStatus } from '../../common/inventory.ts';
import type { RunningSim } from '../../sim/index.ts';
import { type EngineRun, liveOnSim, settle } from './harness.ts';

let sim: RunningSim;
let run: EngineRun;

beforeAll(async () => {
  ({ sim, run } = await liveOnSim());
});
afterAll(async () => {
  run?.stop();
  await sim?.close();
});

type Change = Record<string, string | null>;

const GARBAGE: {
  what: string;
  node: string;
  labels?: Change;
  capacity?: Change;
  allocatable?: Change;
  problem: RegExp;
}[] = [
  {
    what: 'a count that is a word',
    node: 'nuc1',
    labels: { 'nvidia.com/gpu.count': 'lots' },
    problem: /gpu\.count="lots" is not a whole number; counted as 0 GPUs/,
  },
  {
    what: 'a negative count',
    node: 'nuc1',
    labels: { 'nvidia.com/gpu.count': '-3' },
    problem: /gpu\.count="-3" is negative/,
  },
  {
    what: 'an absurd count',
    node: 'nuc1',
    labels: { 'nvidia.com/gpu.count': '99999999999999999999' },
    problem: /implausibly large/,
  },
  {
    what: 'memory with a unit',
    node: 'nuc1',
    labels: { 'nvidia.com/gpu.memory': '12GB' },
    problem: /gpu\.memory="12GB" is not a whole number; memory shown as unknown/,
  },
  {
    what: 'an empty product',
    node: 'nuc1',
    labels: { 'nvidia.com/gpu.product': '' },
    problem: /gpu\.product is empty; shown as unlabeled/,
  },
  {
    what: 'a 10 KB label value',
    node: 'nuc1',
    labels: { 'nvidia.com/gpu.count': 'x'.repeat(10_000) },
    problem: /gpu\.count="x{63}…" is not a whole number/,
  },
  {
    what: 'a capacity that is not a quantity',
    node: 'omen',
    capacity: { 'nvidia.com/gpu': 'NaN' },
    problem: /^nvidia\.com\/gpu capacity "NaN" is not a whole number; counted as 0$/,
  },
  {
    what: 'allocatable above capacity',
    node: 'omen2',
    capacity: { 'nvidia.com/gpu': '1' },
    allocatable: { 'nvidia.com/gpu': '4' },
    problem: /^nvidia\.com\/gpu allocatable 4 is above capacity 1$/,
  },
  {
    what: 'nonsense MIG labels',
    node: 'nuc2',
    labels: { 'nvidia.com/mig.strategy': 'sideways', 'nvidia.com/mig-1g.5gb.count': 'x' },
    problem: /mig-1g\.5gb\.count="x" is not a whole number; profile counted as 0/,
  },
];

describe('garbage GPU labels and quantities', () => {
  it.each(GARBAGE)('$what: a problem sentence on the entry, a valid inventory, still live', async (g) => {
    if (g.labels) sim.control.setNodeLabels(g.node, g.labels);
    if (g.capacity) sim.control.setNodeCapacity(g.node, g.capacity);
    if (g.allocatable) sim.control.setNodeAllocatable(g.node, g.allocatable);
    const entry = () => run.ctx().inventory?.nodes.find((n) => n.name === g.node);
    await run.waitFor(() => (entry()?.problems ?? []).some((p) => g.problem.test(p)), 'the problem sentence');
    const inv = run.ctx().inventory;
    expect(Value.Check(GpuInventoryStatus, inv)).toBe(true);
    expect(entry()?.count).toBeGreaterThanOrEqual(0);
    expect(entry()?.problems?.every((p) => p.length < 400)).toBe(true);
    expect(run.ctx().connection.phase).toBe('live');
    await settle();
    expect(run.alerts.filter((a) => a.kind === 'ready-drop')).toEqual([]);
  });

  it('a CPU node claiming gpu.present=maybe is not counted as a GPU node', async () => {
    sim.control.setNodeLabels('cpu1', { 'nvidia.com/gpu.present': 'maybe' });
    // A real change after it, to know the watch has delivered both.
    sim.control.setNodeLabels('nuc1', { 'nvidia.com/gpu.workload.config': 'vm-vgpu' });
    await run.waitFor(
      () => run.ctx().inventory?.nodes.find((n) => n.name === 'nuc1')?.workload === 'vm-vgpu',
      'the later change',
    );
    expect(run.ctx().inventory?.nodes.map((n) => n.name)).not.toContain('cpu1');
    expect(run.ctx().connection.phase).toBe('live');
  });
});
