/**
 * Free GPUs per node and product, table-driven over whole GPUs, MIG (mixed and single strategy), shared
 * replicas, passthrough devices, terminated and Pending pods; and a fast-check property: free is never
 * negative nor above allocatable, and equals allocatable minus the live pods' requests (clamped and flagged
 * when overcommitted).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gfdLabels, rawNode } from '../../test/fixtures/nodes.ts';
import { gpuPodSpec, rawPod } from '../../test/fixtures/pods.ts';
import { clusterFree, forSnapshot, unknownFree } from './free-gpus.ts';
import { type GpuPod, trimGpuPod } from './gpu-pod.ts';
import { type NodeFacts, trimNode } from './node-facts.ts';

const node = (o: Parameters<typeof rawNode>[0]) => trimNode(rawNode(o)) as NodeFacts;
const pod = (o: Parameters<typeof rawPod>[0]) => trimGpuPod(rawPod(o)) as GpuPod;

const A100 = node({
  name: 'a100',
  labels: gfdLabels('NVIDIA-A100-SXM4-80GB', 4, 81920),
  capacity: { 'nvidia.com/gpu': '4' },
});
const MIXED = node({
  name: 'mig-mixed',
  labels: {
    ...gfdLabels('NVIDIA-A100-SXM4-40GB', 1, 40960),
    'nvidia.com/mig.strategy': 'mixed',
    'nvidia.com/mig-1g.5gb.count': '2',
    'nvidia.com/mig-3g.20gb.count': '1',
  },
  capacity: { 'nvidia.com/mig-1g.5gb': '2', 'nvidia.com/mig-3g.20gb': '1' },
});
const SINGLE = node({
  name: 'mig-single',
  labels: { ...gfdLabels('NVIDIA-A100-SXM4-40GB-MIG-1g.5gb', 7, 4864), 'nvidia.com/mig.strategy': 'single' },
  capacity: { 'nvidia.com/gpu': '7' },
});
const SHARED = node({
  name: 'rtx-shared',
  labels: {
    ...gfdLabels('NVIDIA-GeForce-RTX-4090-SHARED', 1, 24564),
    'nvidia.com/gpu.replicas': '4',
    'nvidia.com/gpu.sharing-strategy': 'time-slicing',
  },
  capacity: { 'nvidia.com/gpu.shared': '4' },
});

describe('clusterFree', () => {
  it('whole GPUs: free = allocatable − live requests; terminated and unbound pods hold nothing', () => {
    const f = clusterFree(
      [A100],
      [
        pod({ name: 'train', node: 'a100', containers: [gpuPodSpec('nvidia.com/gpu', 2)] }),
        pod({
          name: 'done',
          node: 'a100',
          phase: 'Succeeded',
          containers: [gpuPodSpec('nvidia.com/gpu', 1)],
        }),
        pod({ name: 'failed', node: 'a100', phase: 'Failed', containers: [gpuPodSpec('nvidia.com/gpu', 1)] }),
        pod({
          name: 'waiting',
          containers: [gpuPodSpec('nvidia.com/gpu', 8)],
          unschedulable: { message: '0/1 nodes are available: 1 Insufficient nvidia.com/gpu.' },
        }),
      ],
    );
    expect(f.state).toBe('known');
    expect(f.nodes[0]?.slots).toEqual([
      {
        resource: 'nvidia.com/gpu',
        kind: 'whole',
        profile: null,
        capacity: 4,
        allocatable: 4,
        requested: 2,
        free: 2,
        overcommitted: false,
        physical: null,
      },
    ]);
    expect(f.products).toMatchObject([
      { label: 'A100 SXM4 80GB', kind: 'whole', capacity: 4, in_use: 2, free: 2 },
    ]);
    expect(f.free_total).toBe(2);
    expect(f.pending).toEqual({
      count: 1,
      pods: [
        {
          namespace: 'default',
          name: 'waiting',
          requests: { 'nvidia.com/gpu': 8 },
          reason: 'Unschedulable',
          message: '0/1 nodes are available: 1 Insufficient nvidia.com/gpu.',
        },
      ],
    });
  });

  it("a Pending pod's tolerations are shown where the scheduler names an untolerated taint, and only there", () => {
    const taint =
      '0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint {dedicated: ml}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';
    const f = clusterFree(
      [A100],
      [
        pod({
          name: 'tainted',
          containers: [gpuPodSpec('nvidia.com/gpu', 1)],
          tolerations: [
            { key: 'dedicated', operator: 'Equal', value: 'eval', effect: 'NoSchedule' },
            {
              key: 'node.kubernetes.io/not-ready',
              operator: 'Exists',
              effect: 'NoExecute',
              tolerationSeconds: 300,
            },
            { operator: 'Exists' },
          ],
          unschedulable: { message: taint },
        }),
        pod({
          name: 'untolerant',
          containers: [gpuPodSpec('nvidia.com/gpu', 1)],
          tolerations: [],
          unschedulable: { message: taint },
        }),
        pod({
          name: 'waiting',
          containers: [gpuPodSpec('nvidia.com/gpu', 8)],
          unschedulable: { message: '0/1 nodes are available: 1 Insufficient nvidia.com/gpu.' },
        }),
      ],
    );
    expect(f.pending?.pods.map((p) => [p.name, p.tolerations])).toEqual([
      [
        'tainted',
        ['dedicated=eval:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute op=Exists', 'op=Exists'],
      ],
      ['untolerant', []],
      ['waiting', undefined],
    ]);
  });

  it('MIG mixed: one product per profile; MIG single: the product label names the profile', () => {
    const f = clusterFree(
      [MIXED, SINGLE],
      [
        pod({ name: 'a', node: 'mig-mixed', containers: [gpuPodSpec('nvidia.com/mig-1g.5gb', 1)] }),
        pod({ name: 'b', node: 'mig-single', containers: [gpuPodSpec('nvidia.com/gpu', 3)] }),
      ],
    );
    const byLabel = Object.fromEntries(
      f.products.map((p) => [p.label, [p.kind, p.profile, p.allocatable, p.free]]),
    );
    expect(byLabel).toEqual({
      // The mixed node's 1g.5gb and the single node's 1g.5gb are the same product and profile.
      'A100 SXM4 40GB MIG 1g.5gb': ['mig', '1g.5gb', 9, 5],
      'A100 SXM4 40GB MIG 3g.20gb': ['mig', '3g.20gb', 1, 1],
    });
  });

  it('shared replicas: counted as replicas, with the physical GPUs they share', () => {
    const f = clusterFree(
      [SHARED],
      [pod({ name: 'sd', node: 'rtx-shared', containers: [gpuPodSpec('nvidia.com/gpu.shared', 2)] })],
    );
    expect(f.nodes[0]?.slots[0]).toMatchObject({ kind: 'shared', allocatable: 4, free: 2, physical: 1 });
    expect(f.products[0]?.label).toBe('RTX 4090 (shared)');
    expect(f.products[0]?.physical).toBe(1);
  });

  it('free counts only Ready, uncordoned nodes; capacity and in-use count every node', () => {
    const down = node({
      name: 'down',
      ready: 'Unknown',
      labels: gfdLabels('Tesla-T4', 1, 15360),
      capacity: { 'nvidia.com/gpu': '1' },
    });
    const cordoned = node({
      name: 'cordoned',
      unschedulable: true,
      labels: gfdLabels('Tesla-T4', 1, 15360),
      capacity: { 'nvidia.com/gpu': '1' },
    });
    const up = node({
      name: 'up',
      labels: gfdLabels('Tesla-T4', 1, 15360),
      capacity: { 'nvidia.com/gpu': '1' },
    });
    const f = clusterFree([down, cordoned, up], []);
    expect(f.products).toMatchObject([
      { label: 'Tesla T4', nodes: 3, capacity: 3, allocatable: 3, free: 1, max_free_on_one_node: 1 },
    ]);
  });

  it('withdrawn devices under running pods: free clamps at 0 and the node is flagged', () => {
    const withdrawn = node({
      name: 'w',
      labels: gfdLabels('Tesla-T4', 2, 15360),
      capacity: { 'nvidia.com/gpu': '2' },
      allocatable: { 'nvidia.com/gpu': '0' },
    });
    const f = clusterFree(
      [withdrawn],
      [pod({ name: 'x', node: 'w', containers: [gpuPodSpec('nvidia.com/gpu', 1)] })],
    );
    expect(f.nodes[0]?.slots[0]).toMatchObject({
      allocatable: 0,
      requested: 1,
      free: 0,
      overcommitted: true,
    });
    expect(f.overcommitted).toEqual(['w']);
  });

  it('capacity and allocatable both 0 under a running pod (the plugin gone): still a slot, overcommitted', () => {
    const gone = node({
      name: 'g',
      ready: 'Unknown',
      labels: gfdLabels('NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED', 1, 8188),
      capacity: { 'nvidia.com/gpu': '0' },
    });
    const held = pod({ name: 'jupyter', node: 'g', containers: [gpuPodSpec('nvidia.com/gpu', 1)] });
    const f = clusterFree([gone], [held]);
    expect(f.nodes[0]?.slots[0]).toMatchObject({
      capacity: 0,
      allocatable: 0,
      requested: 1,
      overcommitted: true,
    });
    expect(f.overcommitted).toEqual(['g']);
    expect(f.products).toMatchObject([{ label: 'RTX 4070 Laptop GPU (shared)', in_use: 1, free: 0 }]);
    // Nobody holds it: a 0/0 resource is no GPU resource.
    expect(clusterFree([gone], []).nodes).toEqual([]);
  });

  it('a passthrough device is a slot of its own; a NIC is none; a CPU node has no slots', () => {
    const vm = node({
      name: 'vm',
      labels: gfdLabels('NVIDIA-A10', 1, 23028, 'vm-passthrough'),
      capacity: { 'nvidia.com/GA102GL_A10': '1' },
    });
    const nic = node({ name: 'nic', capacity: { 'nvidia.com/rdma_shared_device_a': '63' } });
    const f = clusterFree([vm, nic, node({ name: 'cpu' })], []);
    expect(f.nodes.map((n) => [n.name, n.slots.map((s) => [s.resource, s.kind])])).toEqual([
      ['vm', [['nvidia.com/GA102GL_A10', 'device']]],
    ]);
  });

  it('unknown free GPUs are never 0 nor all free', () => {
    const u = unknownFree('forbidden');
    expect(u).toMatchObject({
      state: 'unknown',
      message: 'free GPUs unknown: pods are forbidden',
      free_total: null,
    });
    expect(u.products).toEqual([]);
    expect(u.pending).toBeNull();
    // With the nodes: capacity and allocatable told, in use and free unknown (null), never 0.
    const withNodes = unknownFree('forbidden', null, [A100, SHARED]);
    expect(
      withNodes.products.map((p) => [p.label, p.allocatable, p.in_use, p.free, p.max_free_on_one_node]),
    ).toEqual([
      ['A100 SXM4 80GB', 4, null, null, null],
      ['RTX 4090 (shared)', 4, null, null, null],
    ]);
    expect(withNodes.nodes).toEqual([]);
    expect(withNodes.pending).toBeNull();
  });
});

describe('forSnapshot', () => {
  it('keeps only nodes with a free slot, at most 100 (most free first), and counts the rest', () => {
    const nodes = Array.from({ length: 160 }, (_, i) =>
      node({
        name: `n${String(i).padStart(3, '0')}`,
        labels: gfdLabels('Tesla-T4', 4, 15360),
        capacity: { 'nvidia.com/gpu': '4' },
      }),
    );
    // n000..n009 are full; n010..n159 have 1 to 4 free.
    const pods = nodes
      .map((n, i) =>
        pod({ name: `p${i}`, node: n.name, containers: [gpuPodSpec('nvidia.com/gpu', i < 10 ? 4 : i % 4)] }),
      )
      .filter((p) => p !== null);
    const full = clusterFree(nodes, pods);
    const shown = forSnapshot(full);
    expect(full.nodes).toHaveLength(160);
    expect(shown.nodes).toHaveLength(100);
    expect(shown.nodes_omitted).toBe(60);
    expect(shown.nodes.every((n) => (n.slots[0]?.free ?? 0) > 0)).toBe(true);
    expect(Math.min(...shown.nodes.map((n) => n.slots[0]?.free ?? 0))).toBeGreaterThanOrEqual(
      Math.max(...full.nodes.filter((n) => !shown.nodes.includes(n)).map((n) => n.slots[0]?.free ?? 0)),
    );
    expect(shown.products).toBe(full.products);
    const small = clusterFree(nodes.slice(10, 20), []);
    expect(forSnapshot(small)).toBe(small);
  });
});

describe('clusterFree property', () => {
  const arbPod = fc.record({
    node: fc.constantFrom('n0', 'n1', 'n2', null),
    phase: fc.constantFrom('Running', 'Pending', 'Succeeded', 'Failed', 'Unknown'),
    gpus: fc.integer({ min: 1, max: 8 }),
  });
  const arbNode = fc.record({
    capacity: fc.integer({ min: 0, max: 8 }),
    allocatable: fc.integer({ min: 0, max: 8 }),
  });

  it('free is in [0, allocatable] and equals allocatable − live requests, clamped and flagged when over', () => {
    fc.assert(
      fc.property(
        fc.array(arbNode, { minLength: 3, maxLength: 3 }),
        fc.array(arbPod, { maxLength: 30 }),
        (ns, ps) => {
          const nodes = ns.map((n, i) =>
            node({
              name: `n${i}`,
              labels: gfdLabels('Tesla-T4', n.capacity, 15360),
              capacity: { 'nvidia.com/gpu': String(n.capacity) },
              allocatable: { 'nvidia.com/gpu': String(n.allocatable) },
            }),
          );
          const pods = ps.map((p, i) =>
            pod({
              name: `p${i}`,
              ...(p.node === null ? {} : { node: p.node }),
              phase: p.phase,
              containers: [gpuPodSpec('nvidia.com/gpu', p.gpus)],
            }),
          );
          const f = clusterFree(nodes, pods);
          for (const n of f.nodes) {
            const slot = n.slots[0];
            if (slot === undefined) continue;
            const live = ps
              .filter((p) => p.node === n.name && p.phase !== 'Succeeded' && p.phase !== 'Failed')
              .reduce((s, p) => s + p.gpus, 0);
            expect(slot.requested).toBe(live);
            expect(slot.free).toBeGreaterThanOrEqual(0);
            expect(slot.free).toBeLessThanOrEqual(slot.allocatable);
            expect(slot.free).toBe(Math.max(0, slot.allocatable - live));
            expect(slot.overcommitted).toBe(live > slot.allocatable);
            expect(f.overcommitted.includes(n.name)).toBe(live > slot.allocatable);
          }
        },
      ),
    );
  });
});
