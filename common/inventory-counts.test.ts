import { describe, expect, it } from 'vitest';
import type { GpuNodeEntry } from './inventory.ts';
import { unlabeledGpuNodes } from './inventory-counts.ts';

const entry = (name: string, product: string | null, count: number): GpuNodeEntry => ({
  name,
  ready: false,
  product,
  count,
  memory: null,
  workload: null,
});

describe('unlabeledGpuNodes', () => {
  it('counts the GPU nodes whose product and count labels are gone (the home lab: 3 of 4)', () => {
    const nodes = [
      entry('nuc1', 'NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED', 1),
      entry('nuc2', null, 0),
      entry('omen', null, 0),
      entry('omen2', null, 0),
    ];
    expect(unlabeledGpuNodes({ nodes })).toBe(3);
    // A count label without a product still counts its GPUs: not unlabeled.
    expect(unlabeledGpuNodes({ nodes: [entry('x', null, 2)] })).toBe(0);
  });
});
