/** Where a job fits, and why not in the order a user fixes things, table-driven. */
import { describe, expect, it } from 'vitest';
import { gfdLabels, rawNode } from '../../test/fixtures/nodes.ts';
import { gpuPodSpec, rawPod } from '../../test/fixtures/pods.ts';
import {
  askText,
  type FitReason,
  type FitRequest,
  fitCluster,
  matchesProduct,
  reasonSentence,
  wantText,
} from './fit.ts';
import { clusterFree } from './free-gpus.ts';
import { type GpuPod, trimGpuPod } from './gpu-pod.ts';
import { type NodeFacts, trimNode } from './node-facts.ts';

const t4 = (name: string, gpus: number, o: Partial<Parameters<typeof rawNode>[0]> = {}) =>
  trimNode(
    rawNode({
      name,
      labels: gfdLabels('Tesla-T4', gpus, 15360),
      capacity: { 'nvidia.com/gpu': String(gpus) },
      ...o,
    }),
  ) as NodeFacts;
const busy = (node: string, gpus: number, name = `${node}-job`) =>
  trimGpuPod(rawPod({ name, node, containers: [gpuPodSpec('nvidia.com/gpu', gpus)] })) as GpuPod;
const ask = (count: number, o: Partial<FitRequest> = {}): FitRequest => ({
  count,
  want: { kind: 'whole' },
  product: null,
  tolerations: [],
  ...o,
});

describe('fitCluster', () => {
  it('fits on the nodes with enough free on one node, most free first', () => {
    const f = clusterFree([t4('a', 2), t4('b', 4), t4('c', 4)], [busy('c', 3)]);
    expect(fitCluster(f.nodes, ask(2), null)).toEqual({
      fits: [
        { node: 'b', free: 4, resource: 'nvidia.com/gpu', product: 'Tesla-T4' },
        { node: 'a', free: 2, resource: 'nvidia.com/gpu', product: 'Tesla-T4' },
      ],
      reasons: [],
    });
  });

  it('no such product', () => {
    const f = clusterFree([t4('a', 2)], []);
    const r = fitCluster(f.nodes, ask(1, { product: 'A100' }), null);
    expect(r.reasons).toEqual([{ kind: 'no-product' }]);
    expect(reasonSentence(r.reasons[0]!, ask(1, { product: 'A100' }))).toBe(
      'no node offers whole A100 GPUs (nvidia.com/gpu)',
    );
  });

  it('fragmentation first, with the free per node; then the blocked nodes in fix order', () => {
    const nodes = [
      t4('a', 2),
      t4('b', 2),
      t4('c', 4, { unschedulable: true }),
      t4('d', 4, { taints: [{ key: 'dedicated', value: 'ml', effect: 'NoSchedule' }] }),
      t4('e', 4, { ready: 'False' }),
    ];
    const r = fitCluster(clusterFree(nodes, []).nodes, ask(3), null);
    expect(r.fits).toEqual([]);
    expect(r.reasons).toEqual([
      {
        kind: 'fragmented',
        total: 4,
        nodes: [
          { node: 'a', free: 2 },
          { node: 'b', free: 2 },
        ],
      },
      { kind: 'cordoned', nodes: [{ node: 'c', free: 4 }] },
      { kind: 'tainted', nodes: [{ node: 'd', free: 4, taints: ['dedicated=ml:NoSchedule'] }] },
      { kind: 'not-ready', nodes: [{ node: 'e', free: 4 }] },
    ]);
    // With a and b busy, 2 free in total is not enough for 3: no fragmentation, only the blocked nodes.
    const busyAB = fitCluster(clusterFree(nodes, [busy('a', 1), busy('b', 1)]).nodes, ask(3), null);
    expect(busyAB.reasons.map((x) => x.kind)).toEqual(['cordoned', 'tainted', 'not-ready']);
  });

  it('a tolerated taint does not block; the lifecycle taints of a NotReady node are reported as NotReady', () => {
    const tainted = t4('d', 4, { taints: [{ key: 'dedicated', value: 'ml', effect: 'NoSchedule' }] });
    const f = clusterFree([tainted], []);
    const tol = [{ key: 'dedicated', operator: 'Equal' as const, value: 'ml', effect: 'NoSchedule' }];
    expect(fitCluster(f.nodes, ask(2, { tolerations: tol }), null).fits.map((x) => x.node)).toEqual(['d']);
    const down = t4('e', 4, {
      ready: 'Unknown',
      taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }],
    });
    expect(fitCluster(clusterFree([down], []).nodes, ask(1), null).reasons).toEqual([
      { kind: 'not-ready', nodes: [{ node: 'e', free: 4 }] },
    ]);
  });

  it('all in use: not enough free, with the most on one usable node', () => {
    const f = clusterFree([t4('a', 2)], [busy('a', 2)]);
    expect(fitCluster(f.nodes, ask(1), null).reasons).toEqual([{ kind: 'insufficient', most: 0 }]);
  });

  it('pods unknown: nothing is said to fit; the blocked nodes are named without counts, then the unknown', () => {
    const f = clusterFree(
      [t4('a', 2), t4('c', 4, { unschedulable: true }), t4('d', 1, { ready: 'False' })],
      [],
    );
    const r = fitCluster(f.nodes, ask(1), 'free GPUs unknown: pods are forbidden');
    expect(r).toEqual({
      fits: [],
      reasons: [
        { kind: 'cordoned', nodes: [{ node: 'c', free: null }] },
        { kind: 'not-ready', nodes: [{ node: 'd', free: null }] },
        { kind: 'pods-unknown', message: 'free GPUs unknown: pods are forbidden' },
      ],
    });
    // The words name the nodes; no count is made up from allocatable (a fully used node is not "1 free").
    expect(r.reasons.map((x) => reasonSentence(x, ask(1)))).toEqual([
      'cordoned: c',
      'NotReady: d',
      'free GPUs unknown: pods are forbidden',
    ]);
  });

  it('a product offered only as MIG profiles or shared replicas: the hint says how to ask', () => {
    const mig = trimNode(
      rawNode({
        name: 'm',
        labels: { ...gfdLabels('NVIDIA-A100-SXM4-40GB', 1, 40960), 'nvidia.com/mig.strategy': 'mixed' },
        capacity: { 'nvidia.com/mig-2g.10gb': '1', 'nvidia.com/mig-1g.5gb': '2' },
      }),
    ) as NodeFacts;
    const f = clusterFree([mig], []);
    const req = { ...ask(1), product: 'A100' };
    const r = fitCluster(f.nodes, req, null);
    expect(r.reasons).toEqual([
      { kind: 'no-product', offeredAs: { mig: ['1g.5gb', '2g.10gb'], shared: false } },
    ]);
    expect(reasonSentence(r.reasons[0] as FitReason, req)).toBe(
      'no node offers whole A100 GPUs (nvidia.com/gpu); offered instead as MIG profiles 1g.5gb, 2g.10gb (ask with --mig 1g.5gb)',
    );
    expect(fitCluster(f.nodes, { ...req, product: 'H100' }, null).reasons).toEqual([{ kind: 'no-product' }]);
    // Any product: the hint names what the nodes offer instead.
    expect(fitCluster(f.nodes, ask(1), null).reasons).toEqual([
      { kind: 'no-product', offeredAs: { mig: ['1g.5gb', '2g.10gb'], shared: false } },
    ]);
    // A MIG profile no node has: the profiles the nodes do have are the way to ask instead.
    const migReq = ask(1, { want: { kind: 'mig', profile: '1g.10gb' } });
    const byMig = fitCluster(f.nodes, migReq, null);
    expect(byMig.reasons).toEqual([
      { kind: 'no-product', offeredAs: { mig: ['1g.5gb', '2g.10gb'], shared: false } },
    ]);
    expect(reasonSentence(byMig.reasons[0] as FitReason, migReq)).toBe(
      'no node offers MIG 1g.10gb instances; offered instead as MIG profiles 1g.5gb, 2g.10gb (ask with --mig 1g.5gb)',
    );
  });

  it('MIG profile and shared replicas are asked for by kind; whole GPUs never land on them', () => {
    const mig = trimNode(
      rawNode({
        name: 'm',
        labels: { ...gfdLabels('NVIDIA-A100-SXM4-40GB', 1, 40960), 'nvidia.com/mig.strategy': 'mixed' },
        capacity: { 'nvidia.com/mig-1g.5gb': '2' },
      }),
    ) as NodeFacts;
    const shared = trimNode(
      rawNode({
        name: 's',
        labels: gfdLabels('NVIDIA-GeForce-RTX-4090-SHARED', 1, 24564),
        capacity: { 'nvidia.com/gpu': '4' },
      }),
    ) as NodeFacts;
    const f = clusterFree([mig, shared], []);
    expect(
      fitCluster(f.nodes, ask(2, { want: { kind: 'mig', profile: '1g.5gb' } }), null).fits.map((x) => x.node),
    ).toEqual(['m']);
    expect(fitCluster(f.nodes, ask(3, { want: { kind: 'shared' } }), null).fits.map((x) => x.node)).toEqual([
      's',
    ]);
    expect(fitCluster(f.nodes, ask(1), null).reasons).toEqual([
      { kind: 'no-product', offeredAs: { mig: ['1g.5gb'], shared: true } },
    ]);
    // A pod file asks by resource: the scheduler would place nvidia.com/gpu on the unrenamed shared node.
    expect(
      fitCluster(f.nodes, ask(1, { want: { kind: 'resource', resource: 'nvidia.com/gpu' } }), null).fits.map(
        (x) => x.node,
      ),
    ).toEqual(['s']);
  });
});

describe('askText and wantText', () => {
  it('say GPU once when the asked product ends in GPU', () => {
    const laptop = ask(1, { product: 'RTX 4070 Laptop GPU' });
    expect(askText(laptop)).toBe('1 whole RTX 4070 Laptop GPU (nvidia.com/gpu)');
    expect(wantText(laptop)).toBe('whole RTX 4070 Laptop GPUs (nvidia.com/gpu)');
    expect(askText({ ...laptop, count: 2, want: { kind: 'shared' } })).toBe(
      '2 shared RTX 4070 Laptop GPU replicas',
    );
    expect(wantText({ ...laptop, product: 'NVIDIA-GeForce-RTX-4070-Laptop-GPU' })).toBe(
      'whole NVIDIA-GeForce-RTX-4070-Laptop GPUs (nvidia.com/gpu)',
    );
    expect(askText(ask(2, { product: 'A100' }))).toBe('2 whole A100 GPUs (nvidia.com/gpu)');
  });
});

describe('matchesProduct', () => {
  it.each([
    ['NVIDIA-A100-SXM4-80GB', 'A100', true],
    ['NVIDIA-A100-SXM4-80GB', 'a100 sxm4', true],
    ['NVIDIA-A100-SXM4-80GB', 'NVIDIA-A100-SXM4-80GB', true],
    ['NVIDIA-A100-SXM4-80GB', 'A10', false],
    ['NVIDIA-GeForce-RTX-4090-SHARED', 'RTX 4090', true],
    ['NVIDIA-GeForce-RTX-4090-SHARED', '409', false],
  ])('%s ~ %s', (label, asked, want) => {
    expect(matchesProduct(label, asked)).toBe(want);
  });
});
