/** The Capacity view's rows across clusters: sums per product, nodes with free slots, unknown never 0, off left out. */
import { describe, expect, it } from 'vitest';
import type { ClusterFree } from '../../common/free-gpus.ts';
import { contextSnapshot, inventory } from '../../test/fixtures/snapshots.ts';
import { capacityOf } from './capacity.ts';

const known = (free: number, allocatable: number, node = 'a1'): ClusterFree => ({
  state: 'known',
  reason: null,
  message: null,
  stale: false,
  products: [
    {
      key: 'NVIDIA-A100|whole||',
      label: 'A100',
      product: 'NVIDIA-A100',
      kind: 'whole',
      profile: null,
      nodes: 1,
      capacity: allocatable,
      allocatable,
      in_use: allocatable - free,
      free,
      max_free_on_one_node: free,
    },
  ],
  nodes: [
    {
      name: node,
      product: 'NVIDIA-A100',
      ready: true,
      cordoned: false,
      taints: [],
      slots: [
        {
          resource: 'nvidia.com/gpu',
          kind: 'whole',
          profile: null,
          capacity: allocatable,
          allocatable,
          requested: allocatable - free,
          free,
          overcommitted: false,
          physical: null,
        },
      ],
    },
  ],
  free_total: free,
  pending: { count: 0, pods: [] },
  overcommitted: [],
});
const unknown = (reason: 'forbidden' | 'off'): ClusterFree => ({
  ...known(0, 0),
  state: 'unknown',
  reason,
  products: [],
  nodes: [],
  free_total: null,
});

describe('capacityOf', () => {
  it('sums a product over clusters and lists the nodes with free slots', () => {
    const c = capacityOf([
      contextSnapshot('lab', 'live', inventory(1, 1), { free: known(3, 4, 'x') }),
      contextSnapshot('home', 'live', inventory(1, 1), { free: known(0, 2, 'y') }),
    ]);
    expect(c.rows).toEqual([
      {
        label: 'A100',
        product: 'NVIDIA-A100',
        kind: 'whole',
        profile: null,
        capacity: 6,
        allocatable: 6,
        inUse: 3,
        free: 3,
        physical: null,
        clusters: ['lab', 'home'],
        unknownIn: [],
        nodes: [{ context: 'lab', node: 'x', resource: 'nvidia.com/gpu', free: 3, usable: true }],
      },
    ]);
    expect(c.freeTotal).toBe(3);
  });

  it('a cluster whose pods are forbidden adds what its nodes offer, with free unknown (never 0)', () => {
    const ro: ClusterFree = {
      ...unknown('forbidden'),
      products: (known(0, 2).products ?? []).map((p) => ({
        ...p,
        in_use: null,
        free: null,
        max_free_on_one_node: null,
      })),
      pending: null,
    };
    const alone = capacityOf([contextSnapshot('ro', 'live', inventory(1, 1), { free: ro })]);
    expect(alone.rows).toMatchObject([
      {
        label: 'A100',
        capacity: 2,
        allocatable: 2,
        inUse: null,
        free: null,
        clusters: ['ro'],
        unknownIn: ['ro'],
      },
    ]);
    const both = capacityOf([
      contextSnapshot('lab', 'live', inventory(1, 1), { free: known(3, 4, 'x') }),
      contextSnapshot('ro', 'live', inventory(1, 1), { free: ro }),
    ]);
    expect(both.rows).toMatchObject([{ allocatable: 6, inUse: 1, free: 3, unknownIn: ['ro'] }]);
    expect(both.pendingCount).toBe(0);
  });

  it('an unknown cluster is listed as unknown, not counted; an off one is left out', () => {
    const c = capacityOf([
      contextSnapshot('ro', 'live', inventory(1, 1), { free: unknown('forbidden') }),
      contextSnapshot('off', 'live', inventory(1, 1), { free: unknown('off') }),
    ]);
    expect(c.rows).toEqual([]);
    expect(c.unknown).toEqual([{ context: 'ro', reason: 'forbidden' }]);
  });
});
