/**
 * snapshotFree, the engine's one-pass figures, against what it replaces: forSnapshot(freeFromTally(...)).
 * Over random clusters (fewer and more nodes than a snapshot shows, in any order, some not ready or
 * cordoned, some without GPUs, products whose labels differ only in memory) and random pods, the two
 * are equal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_NODES_MAX } from '../../common/free-gpus.ts';
import { gfdLabels, rawNode } from '../../test/fixtures/nodes.ts';
import { forSnapshot, freeFromTally, snapshotFree } from './free-gpus.ts';
import { tallyOf } from './free-tally.ts';
import type { GpuPod } from './gpu-pod.ts';
import { type NodeFacts, trimNode } from './node-facts.ts';

// For MIG slots the two A100-80GB labels are one product (node-slots.ts): its `product` is its first node's by name.
const PRODUCTS = [
  'NVIDIA-A100-SXM4-80GB',
  'NVIDIA-A100-SXM4-80GB-MIG-1g.10gb',
  'NVIDIA-A100-SXM4-40GB',
  'Tesla-T4',
];

const arbNode = fc.record({
  product: fc.constantFrom(...PRODUCTS, null),
  gpus: fc.integer({ min: 0, max: 8 }),
  mig: fc.integer({ min: 0, max: 4 }),
  ready: fc.constantFrom('True', 'True', 'False', 'Unknown') as fc.Arbitrary<'True' | 'False' | 'Unknown'>,
  cordoned: fc.boolean(),
});

const arbPod = fc.record({
  node: fc.nat(),
  gpu: fc.integer({ min: 0, max: 6 }),
  mig: fc.integer({ min: 0, max: 3 }),
  phase: fc.constantFrom('Running', 'Pending', 'Succeeded'),
  bound: fc.boolean(),
});

type NodeSpec = typeof arbNode extends fc.Arbitrary<infer T> ? T : never;

function node(i: number, n: NodeSpec): NodeFacts {
  const capacity: Record<string, string> = {};
  if (n.gpus > 0) capacity['nvidia.com/gpu'] = String(n.gpus);
  if (n.mig > 0) capacity['nvidia.com/mig-1g.10gb'] = String(n.mig);
  return trimNode(
    rawNode({
      name: `node-${String(i).padStart(4, '0')}`,
      ready: n.ready,
      unschedulable: n.cordoned,
      labels: n.product === null ? {} : gfdLabels(n.product, n.gpus, 81920),
      capacity,
    }),
  ) as NodeFacts;
}

describe('snapshotFree', () => {
  it('equals forSnapshot(freeFromTally(...)) for any cluster, node order and pods', () => {
    fc.assert(
      fc.property(
        // Often more nodes than a snapshot shows, so which nodes are cut (and in what order) matters.
        fc
          .integer({ min: 0, max: SNAPSHOT_NODES_MAX + 40 })
          .chain((n) => fc.array(arbNode, { minLength: n, maxLength: n })),
        fc.array(arbPod, { maxLength: 300 }),
        fc.integer(),
        (specs, podSpecs, seed) => {
          const nodes = specs.map((s, i) => node(i, s));
          // The cache holds nodes in list order, then the ones added since: any order at all.
          const shuffled = nodes
            .map((n, i) => ({ n, k: (Math.imul(i + 1, 2654435761) ^ seed) >>> 0 }))
            .sort((a, b) => a.k - b.k)
            .map((x) => x.n);
          const pods: GpuPod[] = podSpecs.map((p, i) => {
            const requests: Record<string, number> = {};
            if (p.gpu > 0) requests['nvidia.com/gpu'] = p.gpu;
            if (p.mig > 0 || p.gpu === 0) requests['nvidia.com/mig-1g.10gb'] = Math.max(1, p.mig);
            const on = nodes.length === 0 || !p.bound ? null : (nodes[p.node % nodes.length]?.name ?? null);
            return { namespace: 'ns', name: `p${i}`, node: on, phase: p.phase, requests };
          });
          const tally = tallyOf(pods);
          expect(snapshotFree(shuffled, tally)).toEqual(forSnapshot(freeFromTally(nodes, tally)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('shows at most SNAPSHOT_NODES_MAX nodes, the most free first, and counts the rest', () => {
    const nodes = Array.from({ length: SNAPSHOT_NODES_MAX + 5 }, (_, i) =>
      node(i, { product: 'Tesla-T4', gpus: (i % 4) + 1, mig: 0, ready: 'True', cordoned: false }),
    );
    const free = snapshotFree(nodes, tallyOf([]));
    expect(free.nodes).toHaveLength(SNAPSHOT_NODES_MAX);
    expect(free.nodes_omitted).toBe(5);
    // 27 nodes have a single GPU; five of them are the ones left out.
    expect(free.nodes.filter((n) => n.slots[0]?.free === 1)).toHaveLength(27 - 5);
    expect(free.products[0]?.free).toBe(nodes.reduce((s, _, i) => s + (i % 4) + 1, 0));
  });

  it("names a product shared by two labels after its first node by name, whatever the nodes' order", () => {
    const mig = (i: number, product: string) =>
      node(i, { product, gpus: 2, mig: 2, ready: 'True', cordoned: false });
    const nodes = [mig(1, 'NVIDIA-A100-SXM4-80GB-MIG-1g.10gb'), mig(0, 'NVIDIA-A100-SXM4-80GB')];
    const migProduct = snapshotFree(nodes, tallyOf([])).products.find((p) => p.kind === 'mig');
    expect(migProduct?.nodes).toBe(2);
    expect(migProduct?.product).toBe('NVIDIA-A100-SXM4-80GB');
  });
});
