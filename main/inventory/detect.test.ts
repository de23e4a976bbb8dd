/** GPU-node detection: one table row per kind of evidence in SPEC.md. */
import { describe, expect, it } from 'vitest';
import { type RawNodeOptions, rawNode } from '../../test/fixtures/nodes.ts';
import { isGpuNode } from './detect.ts';
import { trimNode } from './node-facts.ts';

const facts = (o: Omit<RawNodeOptions, 'name'>) => {
  const f = trimNode(rawNode({ name: 'n', ...o }));
  if (f === null) throw new Error('fixture did not trim');
  return f;
};

describe('isGpuNode', () => {
  it.each<[string, Omit<RawNodeOptions, 'name'>, boolean]>([
    ['a CPU node', { labels: { 'node-role.kubernetes.io/control-plane': 'true' } }, false],
    ['gpu.present=false and nothing else', { labels: { 'nvidia.com/gpu.present': 'false' } }, false],
    [
      'pci-10de.present=false and nothing else',
      { labels: { 'feature.node.kubernetes.io/pci-10de.present': 'false' } },
      false,
    ],
    ['gpu.present=true', { labels: { 'nvidia.com/gpu.present': 'true' } }, true],
    [
      'pci-10de.present=true (NFD only)',
      { labels: { 'feature.node.kubernetes.io/pci-10de.present': 'true' } },
      true,
    ],
    ['a product label', { labels: { 'nvidia.com/gpu.product': 'Tesla-T4' } }, true],
    ['a malformed count label', { labels: { 'nvidia.com/gpu.count': 'abc' } }, true],
    ['a memory label', { labels: { 'nvidia.com/gpu.memory': '16384' } }, true],
    [
      'workload.config only (labels lost on NotReady)',
      { labels: { 'nvidia.com/gpu.workload.config': 'vm-passthrough' } },
      true,
    ],
    ['mig.strategy', { labels: { 'nvidia.com/mig.strategy': 'mixed' } }, true],
    ['a MIG profile count label', { labels: { 'nvidia.com/mig-1g.5gb.count': '7' } }, true],
    ['gpu.replicas', { labels: { 'nvidia.com/gpu.replicas': '4' } }, true],
    ['gpu.sharing-strategy', { labels: { 'nvidia.com/gpu.sharing-strategy': 'time-slicing' } }, true],
    ['nvidia.com/gpu capacity 0 (passthrough)', { capacity: { 'nvidia.com/gpu': '0' } }, true],
    ['nvidia.com/gpu.shared capacity', { capacity: { 'nvidia.com/gpu.shared': '4' } }, true],
    ['a MIG resource', { capacity: { 'nvidia.com/mig-1g.10gb': '2' } }, true],
    ['a passthrough device resource', { capacity: { 'nvidia.com/GA102GL_A10': '1' } }, true],
    [
      'an nvidia.com resource in allocatable only',
      { capacity: {}, allocatable: { 'nvidia.com/gpu': '1' } },
      true,
    ],
    [
      'gpu.present=false but a GPU resource',
      { labels: { 'nvidia.com/gpu.present': 'false' }, capacity: { 'nvidia.com/gpu': '1' } },
      true,
    ],
    ['an unrelated vendor resource', { capacity: { 'amd.com/gpu': '1' } }, false],
    // NVIDIA Network Operator resources on a CPU node are NICs, not GPUs.
    [
      'RDMA shared device (Network Operator)',
      { capacity: { 'nvidia.com/rdma_shared_device_a': '63' } },
      false,
    ],
    ['host device (Network Operator)', { capacity: { 'nvidia.com/hostdev': '2' } }, false],
    ['SR-IOV VFs (Network Operator)', { capacity: { 'nvidia.com/sriov_net_a': '8' } }, false],
    ['SR-IOV, other naming', { capacity: { 'nvidia.com/sriov-vf': '8' } }, false],
    ['a Mellanox NIC resource named in the config', { capacity: { 'nvidia.com/mlnx_cx6': '4' } }, false],
    [
      'several Network Operator resources, allocatable too',
      {
        capacity: { 'nvidia.com/rdma_shared_device_a': '63', 'nvidia.com/hostdev': '2' },
        allocatable: { 'nvidia.com/rdma_shared_device_b': '63' },
      },
      false,
    ],
    ['a passthrough T4 (pci.ids name)', { capacity: { 'nvidia.com/TU104GL_TESLA_T4': '1' } }, true],
    ['a passthrough H100 (pci.ids name)', { capacity: { 'nvidia.com/GH100_H100_SXM5_80GB': '8' } }, true],
    ['a passthrough GPU without pci.ids entry (device id)', { capacity: { 'nvidia.com/2236': '1' } }, true],
    ['a vGPU (GRID type)', { capacity: { 'nvidia.com/GRID_T4-16Q': '1' } }, true],
    ['a vGPU (NVIDIA type)', { capacity: { 'nvidia.com/NVIDIA_A10-12Q': '2' } }, true],
    [
      'a GPU node that also has RDMA NICs',
      { capacity: { 'nvidia.com/gpu': '8', 'nvidia.com/rdma_shared_device_a': '63' } },
      true,
    ],
    ['an unrelated nvidia.com label', { labels: { 'nvidia.com/cuda.driver.major': '550' } }, false],
  ])('%s → %s', (_, options, expected) => {
    expect(isGpuNode(facts(options))).toBe(expected);
  });

  it('takes hand-built facts that carry labels trimNode would drop', () => {
    // trimNode shares one frozen empty label set between nodes; hand-built facts bring their own.
    const f = { ...facts({}), labels: {} as Record<string, string> };
    f.labels['kubernetes.io/hostname'] = 'n';
    expect(isGpuNode(f)).toBe(false);
    f.labels['nvidia.com/gpu.present'] = ' TRUE ';
    expect(isGpuNode(f)).toBe(true);
  });
});
