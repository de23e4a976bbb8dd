// large:N — N realistic nodes with a deterministic mix of GPU products, MIG, time-slicing, passthrough and CPU.
import type { KObj } from '../types.ts';
import { buildNode } from './node.ts';

type Kind = {
  labels: Record<string, string>;
  capacity?: Record<string, string>;
  allocatable?: Record<string, string>;
};
const PRESENT = { 'nvidia.com/gpu.present': 'true', 'feature.node.kubernetes.io/pci-10de.present': 'true' };
const gpu = (product: string, count: number, memory: number, workload = 'container') => ({
  ...PRESENT,
  'nvidia.com/gpu.product': product,
  'nvidia.com/gpu.count': String(count),
  'nvidia.com/gpu.memory': String(memory),
  'nvidia.com/gpu.workload.config': workload,
});

const KINDS: Kind[] = [
  { labels: {} },
  { labels: gpu('NVIDIA-A100-SXM4-80GB', 8, 81920), capacity: { 'nvidia.com/gpu': '8' } },
  { labels: gpu('NVIDIA-H100-80GB-HBM3', 8, 81559), capacity: { 'nvidia.com/gpu': '8' } },
  { labels: gpu('NVIDIA-L40S', 4, 46068), capacity: { 'nvidia.com/gpu': '4' } },
  {
    labels: {
      ...gpu('NVIDIA-GeForce-RTX-4090-SHARED', 1, 24564),
      'nvidia.com/gpu.replicas': '4',
      'nvidia.com/gpu.sharing-strategy': 'time-slicing',
    },
    capacity: { 'nvidia.com/gpu.shared': '4' },
  },
  {
    labels: {
      ...gpu('NVIDIA-A100-SXM4-40GB', 1, 40960),
      'nvidia.com/mig.strategy': 'mixed',
      'nvidia.com/mig-1g.5gb.count': '4',
      'nvidia.com/mig-3g.20gb.count': '1',
    },
    capacity: { 'nvidia.com/mig-1g.5gb': '4', 'nvidia.com/mig-3g.20gb': '1' },
  },
  {
    labels: {
      ...gpu('NVIDIA-A100-SXM4-40GB-MIG-1g.5gb', 7, 4864),
      'nvidia.com/mig.strategy': 'single',
      'nvidia.com/mig.config': 'all-1g.5gb',
    },
    capacity: { 'nvidia.com/gpu': '7' },
  },
  {
    labels: { ...PRESENT, 'nvidia.com/gpu.workload.config': 'vm-passthrough' },
    capacity: { 'nvidia.com/gpu': '0', 'nvidia.com/GA100_A100_PCIE_40GB': '2' },
  },
  { labels: {} },
  {
    labels: gpu('NVIDIA-H100-80GB-HBM3', 8, 81559),
    capacity: { 'nvidia.com/gpu': '8' },
    allocatable: { 'nvidia.com/gpu': '6' },
  },
];

export function largeNodes(n: number, now = Date.now()): KObj[] {
  const out: KObj[] = [];
  const width = String(n).length;
  for (let i = 0; i < n; i++) {
    const kind = KINDS[i % KINDS.length] as Kind;
    const notReady = i % 37 === 5;
    const lostLabels = notReady && kind.labels['nvidia.com/gpu.product'] !== undefined;
    const labels = lostLabels ? { ...PRESENT, 'nvidia.com/gpu.workload.config': 'container' } : kind.labels;
    out.push(
      buildNode({
        name: `node-${String(i).padStart(width, '0')}`,
        ready: notReady ? (i % 2 ? 'Unknown' : 'False') : 'True',
        ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        created: new Date(now - (1 + (i % 400)) * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        labels: {
          ...labels,
          'topology.kubernetes.io/zone': `zone-${i % 3}`,
          'node.kubernetes.io/instance-type': kind.labels['nvidia.com/gpu.product']
            ? 'gpu-large'
            : 'cpu-large',
        },
        capacity: kind.capacity,
        allocatable: kind.allocatable,
        images: 52,
        unschedulable: i % 101 === 50,
      }),
    );
  }
  return out;
}
