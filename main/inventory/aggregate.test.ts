/** The inventory aggregate (SPEC.md's home lab as golden) and the meaningful-change comparison. */
import { describe, expect, it } from 'vitest';
import type { GpuInventoryStatus, LastSeenLabels } from '../../common/inventory.ts';
import { gfdLabels, homelabNodes, rawNode } from '../../test/fixtures/nodes.ts';
import { buildInventory, inventoriesEqual, withObservedAt } from './aggregate.ts';
import { type NodeFacts, trimNode } from './node-facts.ts';

const AT = '2025-06-01T12:00:00Z';
const trimAll = (raws: unknown[]): NodeFacts[] =>
  raws.map(trimNode).filter((f): f is NodeFacts => f !== null);
const none: ReadonlyMap<string, LastSeenLabels> = new Map();
const unlabeled = (name: string, workload: string, readiness: 'Unknown' | 'False', since: string) => ({
  name,
  ready: false,
  product: null,
  count: 0,
  memory: null,
  workload,
  readiness,
  not_ready_reason: readiness === 'Unknown' ? 'NodeStatusUnknown' : 'KubeletNotReady',
  not_ready_since: since,
  not_ready_message:
    readiness === 'Unknown'
      ? 'Kubelet stopped posting node status.'
      : 'container runtime network not ready: NetworkReady=false',
  cordoned: false,
  capacity_gpus: null,
  allocatable_gpus: null,
  resources: [],
  mig: null,
  sharing: null,
  last_seen: null,
  problems: [],
});

/** SPEC.md's 8-node home lab, every field of every entry. */
const HOMELAB_INVENTORY: GpuInventoryStatus = {
  observed_at: AT,
  total_gpu_nodes: 4,
  ready_gpu_nodes: 0,
  total_gpus: 1,
  nodes: [
    {
      name: 'nuc1',
      ready: false,
      product: 'NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED',
      count: 1,
      memory: 8188,
      workload: 'vm-passthrough',
      readiness: 'Unknown',
      not_ready_reason: 'NodeStatusUnknown',
      not_ready_since: '2025-06-01T08:30:00Z',
      not_ready_message: 'Kubelet stopped posting node status.',
      cordoned: false,
      capacity_gpus: 0,
      allocatable_gpus: 0,
      resources: [
        { name: 'nvidia.com/AD106M_GEFORCE_RTX_4070_MAX_Q_MOBILE', capacity: 1, allocatable: 1 },
        { name: 'nvidia.com/gpu', capacity: 0, allocatable: 0 },
      ],
      mig: null,
      sharing: { strategy: null, replicas: null },
      last_seen: null,
      problems: [
        'nvidia.com/gpu capacity is 0 although the node is labelled NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED: ' +
          'expected with nvidia.com/gpu.workload.config=vm-passthrough; the node advertises ' +
          'nvidia.com/AD106M_GEFORCE_RTX_4070_MAX_Q_MOBILE',
      ],
      // The same sentence as facts, which the window words in its language.
      problem_words: [
        {
          code: 'hiddenGpus',
          vars: {
            what: 'zeroCapacity',
            resource: 'nvidia.com/gpu',
            product: 'NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED',
            why: 'expectedWith',
            label: 'nvidia.com/gpu.workload.config',
            workload: 'vm-passthrough',
            others: 'nvidia.com/AD106M_GEFORCE_RTX_4070_MAX_Q_MOBILE',
          },
        },
      ],
    },
    unlabeled('nuc2', 'vm-passthrough', 'Unknown', '2025-06-01T08:30:00Z'),
    unlabeled('omen', 'vm-passthrough', 'Unknown', '2025-06-01T08:30:00Z'),
    unlabeled('omen2', 'container', 'False', '2025-06-01T09:15:00Z'),
  ],
};

describe('buildInventory', () => {
  it("reproduces SPEC.md's home lab exactly (4 GPU nodes of 8, 0 ready, 1 GPU)", () => {
    const inv = buildInventory(trimAll(homelabNodes()), none, AT);
    expect(inv).toEqual(HOMELAB_INVENTORY);
    expect(Object.keys(inv)).toEqual([
      'observed_at',
      'total_gpu_nodes',
      'ready_gpu_nodes',
      'total_gpus',
      'nodes',
    ]);
  });

  it('sorts by name in byte order whatever the input order, and sums counts', () => {
    // 'B' is no Kubernetes node name (trimNode refuses it); facts built by hand still sort by bytes.
    const nodes = trimAll([
      rawNode({ name: 'b', labels: gfdLabels('Tesla-T4', 4, 15360), ready: 'False' }),
      rawNode({ name: 'cpu' }),
      rawNode({ name: 'upper-b', labels: gfdLabels('Tesla-T4', 2, 15360) }),
      rawNode({ name: 'a', labels: gfdLabels('Tesla-T4', 1, 15360) }),
    ]).map((n) => (n.name === 'upper-b' ? { ...n, name: 'B' } : n));
    const inv = buildInventory(nodes, none, AT);
    expect(inv.nodes.map((n) => n.name)).toEqual(['B', 'a', 'b']);
    expect([inv.total_gpu_nodes, inv.ready_gpu_nodes, inv.total_gpus]).toEqual([3, 2, 7]);
  });

  it('shows last seen labels for a node that lost them', () => {
    const seen = new Map([['nuc2', { product: 'NVIDIA-GeForce-RTX-4070', count: 1, memory: 12282 }]]);
    const inv = buildInventory(trimAll(homelabNodes()), seen, AT);
    expect(inv.nodes.find((n) => n.name === 'nuc2')?.last_seen).toEqual(seen.get('nuc2'));
    expect(inv.total_gpus).toBe(1);
  });

  it('reuses the entries of unchanged facts and re-derives replaced ones', () => {
    const [a, b] = trimAll([
      rawNode({ name: 'a', labels: gfdLabels('Tesla-T4', 1, 15360) }),
      rawNode({ name: 'b', ready: 'False', labels: { 'nvidia.com/gpu.present': 'true' } }),
    ]);
    if (a === undefined || b === undefined) throw new Error('fixture did not trim');
    const first = buildInventory([a, b], none, AT);
    const replaced = { ...a, ready: { ...a.ready, status: 'False' as const } };
    const seen = new Map([['b', { product: 'Tesla-T4', count: 2, memory: null }]]);
    const second = buildInventory([replaced, b], seen, AT);
    expect(second.nodes[0]).not.toBe(first.nodes[0]);
    expect(second.nodes[0]?.ready).toBe(false);
    expect(second.nodes[1]?.last_seen).toEqual({ product: 'Tesla-T4', count: 2, memory: null });
    const third = buildInventory([replaced, b], seen, AT);
    expect(third.nodes[0]).toBe(second.nodes[0]);
    expect(third.nodes[1]).toBe(second.nodes[1]);
  });

  it('handles 5,000 nodes of which 1,000 GPU nodes', () => {
    const raws = Array.from({ length: 5000 }, (_, i) =>
      rawNode(
        i % 5 === 0
          ? {
              name: `gpu-${i}`,
              labels: gfdLabels('NVIDIA-H100-80GB-HBM3', 8, 81559),
              capacity: { 'nvidia.com/gpu': '8' },
            }
          : { name: `cpu-${i}` },
      ),
    );
    const facts = trimAll(raws);
    const a = buildInventory(facts, none, AT);
    expect([a.total_gpu_nodes, a.ready_gpu_nodes, a.total_gpus]).toEqual([1000, 1000, 8000]);
    expect(inventoriesEqual(a, buildInventory([...facts].reverse(), none, 'later'))).toBe(true);
  });
});

describe('inventoriesEqual and withObservedAt', () => {
  const base = buildInventory(trimAll(homelabNodes()), none, AT);
  const edit = (f: (inv: GpuInventoryStatus) => void): GpuInventoryStatus => {
    const copy = structuredClone(base);
    f(copy);
    return copy;
  };

  it.each<[string, GpuInventoryStatus | null, GpuInventoryStatus | null, boolean]>([
    ['both null', null, null, true],
    ['null and an inventory', null, base, false],
    ['a deep copy', base, structuredClone(base), true],
    [
      'another observed_at',
      base,
      edit((i) => {
        i.observed_at = '2030-01-01T00:00:00Z';
      }),
      true,
    ],
    [
      'nodes in another order',
      base,
      edit((i) => {
        i.nodes.reverse();
      }),
      true,
    ],
    [
      'missing optional extras versus nulls',
      base,
      edit((i) => {
        for (const n of i.nodes) delete n.last_seen;
      }),
      true,
    ],
    [
      'a node became ready',
      base,
      edit((i) => {
        i.nodes[0]!.ready = true;
        i.ready_gpu_nodes = 1;
      }),
      false,
    ],
    [
      'readiness only (Unknown → False)',
      base,
      edit((i) => {
        i.nodes[1]!.readiness = 'False';
      }),
      false,
    ],
    [
      'a new problem',
      base,
      edit((i) => {
        i.nodes[2]!.problems = ['x'];
      }),
      false,
    ],
    [
      'a renamed node',
      base,
      edit((i) => {
        i.nodes[3]!.name = 'omen3';
      }),
      false,
    ],
    [
      'an allocatable change',
      base,
      edit((i) => {
        i.nodes[0]!.resources![0]!.allocatable = 0;
      }),
      false,
    ],
  ])('%s → %s', (_, a, b, equal) => {
    expect(inventoriesEqual(a, b)).toBe(equal);
    expect(inventoriesEqual(b, a)).toBe(equal);
  });

  it('keeps the previous object (and its observed_at) when nothing meaningful changed', () => {
    const later = buildInventory(trimAll(homelabNodes()), none, '2025-06-01T12:05:00Z');
    expect(withObservedAt(later, base)).toBe(base);
    expect(withObservedAt(later, null)).toBe(later);
    const changed = edit((i) => {
      i.observed_at = '2025-06-01T12:06:00Z';
      i.total_gpus = 2;
    });
    expect(withObservedAt(changed, base).observed_at).toBe('2025-06-01T12:06:00Z');
  });
});
