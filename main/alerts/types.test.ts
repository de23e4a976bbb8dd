// The policy's per-node facts: Ready nodes with the same GPU figures share one frozen object (bench row 3).
import { describe, expect, it } from 'vitest';
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import { viewOf } from './types.ts';

const entry = (name: string, ready: boolean, gpus: number): GpuNodeEntry => ({
  name,
  ready,
  product: 'NVIDIA-L40S',
  count: 4,
  memory: 46068,
  workload: 'container',
  readiness: ready ? 'True' : 'False',
  not_ready_reason: ready ? null : 'KubeletNotReady',
  capacity_gpus: gpus,
  allocatable_gpus: gpus,
});

const inventory = (nodes: GpuNodeEntry[]): GpuInventoryStatus => ({
  observed_at: '2025-06-01T12:00:00Z',
  total_gpu_nodes: nodes.length,
  ready_gpu_nodes: nodes.filter((n) => n.ready).length,
  total_gpus: nodes.length * 4,
  nodes,
});

describe('viewOf', () => {
  const view = viewOf(
    inventory([
      entry('a', true, 4),
      entry('b', true, 4),
      entry('c', true, 2),
      entry('d', false, 4),
      entry('e', false, 4),
    ]),
  );

  it('same facts → the same object for Ready nodes; different figures or NotReady → not', () => {
    expect(view.nodes.b).toBe(view.nodes.a);
    expect(view.nodes.c).not.toBe(view.nodes.a);
    expect(view.nodes.c).toMatchObject({ ready: true, capacity: 2, allocatable: 2 });
    expect(view.nodes.e).not.toBe(view.nodes.d);
    expect(view.nodes.d).toMatchObject({ ready: false, capacity: 4 });
    expect(view.nodes.d?.why).not.toBeNull();
  });

  it('a shared object is frozen: a mutation attempt throws', () => {
    expect(() => {
      (view.nodes.a as { ready: boolean }).ready = false;
    }).toThrow(TypeError);
    expect(viewOf(inventory([entry('x', true, 4)])).nodes.x?.ready).toBe(true);
  });
});
