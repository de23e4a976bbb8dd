/** The scan table text: SPEC.md's example as golden, -o wide, and product shortening. */
import { describe, expect, it } from 'vitest';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { gfdLabels, homelabNodes, rawNode } from '../../test/fixtures/nodes.ts';
import { buildInventory } from './aggregate.ts';
import { formatInventoryTable, shortProduct } from './format-table.ts';
import { type NodeFacts, trimNode } from './node-facts.ts';

const AT = '2025-06-01T12:00:00Z';
const trimAll = (raws: unknown[]): NodeFacts[] =>
  raws.map(trimNode).filter((f): f is NodeFacts => f !== null);
const homelab = buildInventory(trimAll(homelabNodes()), new Map(), AT);

describe('formatInventoryTable', () => {
  // READY in kubectl's words, as the window's node table: Ready, NotReady, Unknown (kubelet stopped reporting).
  it("prints SPEC.md's home lab as a kubectl-style table", () => {
    expect(formatInventoryTable(homelab, false)).toBe(
      [
        'total_gpu_nodes: 4   ready_gpu_nodes: 0   total_gpus: 1',
        'NAME    READY      PRODUCT                                     GPUS   MEMORY   WORKLOAD',
        'nuc1    Unknown    NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED   1      8188Mi   vm-passthrough',
        'nuc2    Unknown    <unlabeled>                                 0      <none>   vm-passthrough',
        'omen    Unknown    <unlabeled>                                 0      <none>   vm-passthrough',
        'omen2   NotReady   <unlabeled>                                 0      <none>   container',
      ].join('\n'),
    );
  });

  it('adds what each unlabeled node was last seen with', () => {
    const seen = new Map([['omen', { product: 'NVIDIA-GeForce-RTX-4070-SHARED', count: 1, memory: 12282 }]]);
    const inv = buildInventory(trimAll(homelabNodes()), seen, AT);
    expect(formatInventoryTable(inv, false).split('\n')[4]).toBe(
      'omen    Unknown    <unlabeled> (last seen: RTX 4070 (shared) ×1)   0      <none>   vm-passthrough',
    );
  });

  it.each([
    ['omen2', new Map(), 'omen2   NotReady   <unlabeled>                       0      <none>   container'],
    [
      'omen2',
      new Map([['omen2', 'NVIDIA GeForce RTX 4070 SUPER']]),
      'omen2   NotReady   RTX 4070 SUPER (from telemetry)   0      <none>   container',
    ],
    // Only a node without a product label takes telemetry's word; a labelled one keeps its label.
    [
      'nuc1',
      new Map([['nuc1', 'NVIDIA H100']]),
      'nuc1    Unknown    NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED   1      8188Mi   vm-passthrough',
    ],
  ])('%s with telemetry models %j', (node, models, row) => {
    const line = formatInventoryTable(homelab, false, models as Map<string, string>)
      .split('\n')
      .find((l) => l.startsWith(`${node} `));
    // Columns align to the widest cell, so compare with runs of spaces folded.
    expect(line?.replace(/ +/g, ' ')).toBe(row.replace(/ +/g, ' '));
  });

  it('marks the telemetry model beside what the labels last said', () => {
    const seen = new Map([['omen', { product: 'NVIDIA-GeForce-RTX-4070-SHARED', count: 1, memory: 12282 }]]);
    const inv = buildInventory(trimAll(homelabNodes()), seen, AT);
    const models = new Map([['omen', 'NVIDIA GeForce RTX 4070']]);
    expect(formatInventoryTable(inv, true, models).split('\n')[4]).toMatch(
      /^omen +Unknown +RTX 4070 \(from telemetry\) \(last seen: RTX 4070 \(shared\) ×1\) +0 /,
    );
  });

  it('prints the extras with -o wide', () => {
    const inv = buildInventory(
      trimAll([
        rawNode({
          name: 'dgx1',
          labels: {
            ...gfdLabels('NVIDIA-A100-SXM4-40GB', 1, 40960),
            'nvidia.com/mig.strategy': 'mixed',
            'nvidia.com/mig-1g.5gb.count': '2',
          },
          capacity: { 'nvidia.com/mig-1g.5gb': '2' },
          allocatable: { 'nvidia.com/mig-1g.5gb': '1' },
          unschedulable: true,
        }),
        rawNode({
          name: 'ts1',
          ready: 'False',
          since: '2025-06-01T10:00:00Z',
          labels: {
            ...gfdLabels('Tesla-T4-SHARED', 1, 15360),
            'nvidia.com/gpu.replicas': '4',
            'nvidia.com/gpu.sharing-strategy': 'time-slicing',
          },
          capacity: { 'nvidia.com/gpu': '4' },
        }),
      ]),
      new Map(),
      AT,
    );
    expect(formatInventoryTable(inv, true)).toBe(
      [
        'total_gpu_nodes: 2   ready_gpu_nodes: 1   total_gpus: 2',
        'NAME   READY      PRODUCT                 GPUS   MEMORY    WORKLOAD    READINESS   REASON                                           SINCE                  CORDONED   ALLOC/CAP   MIG              SHARING          PROBLEMS',
        'dgx1   Ready      NVIDIA-A100-SXM4-40GB   1      40960Mi   container   True        <none>                                           <none>                 true       1/2         mixed 1g.5gb×2   <none>           1 of 2 nvidia.com/mig-1g.5gb withdrawn by the device plugin',
        'ts1    NotReady   Tesla-T4-SHARED         1      15360Mi   container   False       NotReady (container runtime network not ready)   2025-06-01T10:00:00Z   false      4/4         <none>           time-slicing×4   <none>',
      ].join('\n'),
    );
  });

  it('says so when there are no GPU nodes', () => {
    const empty: GpuInventoryStatus = {
      observed_at: AT,
      total_gpu_nodes: 0,
      ready_gpu_nodes: 0,
      total_gpus: 0,
      nodes: [],
    };
    expect(formatInventoryTable(empty, true)).toBe(
      'total_gpu_nodes: 0   ready_gpu_nodes: 0   total_gpus: 0\nNo GPU nodes found.',
    );
  });
});

describe('shortProduct', () => {
  it.each([
    ['NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED', 'RTX 4070 Laptop GPU (shared)'],
    ['NVIDIA-GeForce-RTX-4070', 'RTX 4070'],
    ['NVIDIA-A100-SXM4-80GB', 'A100 SXM4 80GB'],
    ['NVIDIA-A100-SXM4-40GB-MIG-1g.5gb', 'A100 SXM4 40GB MIG 1g.5gb'],
    ['Tesla-T4', 'Tesla T4'],
    // The DCGM exporter's modelName form.
    ['NVIDIA GeForce RTX 4070 SUPER', 'RTX 4070 SUPER'],
    ['NVIDIA H100 80GB HBM3', 'H100 80GB HBM3'],
    ['NVIDIA-', 'NVIDIA-'],
    ['-SHARED', ' (shared)'],
    ['', ''],
  ])('%s → %s', (product, short) => {
    expect(shortProduct(product)).toBe(short);
  });
});
