// The 8-node home lab of SPEC.md: 4 NotReady GPU nodes (one labelled RTX 4070 x1) and 4 Ready CPU nodes.
// Why they are down is as a real cluster says it: the kubelets of nuc1, nuc2 and omen stopped posting status
// (the node controller set Ready Unknown), omen2's kubelet runs but its container runtime network is not
// ready; homelabExtras() adds the node events and the GPU pods scheduled on those nodes.
import type { KObj } from '../types.ts';
import { buildNode } from './node.ts';

const PRESENT = { 'nvidia.com/gpu.present': 'true', 'feature.node.kubernetes.io/pci-10de.present': 'true' };

export const OMEN2_MESSAGE =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function homelabNodes(now = Date.now()): KObj[] {
  const days = (d: number) => iso(now - d * 86_400_000);
  const hours = (h: number) => iso(now - h * 3_600_000);
  return [
    buildNode({
      name: 'cp1',
      ready: 'True',
      ip: '192.168.1.10',
      created: days(210),
      labels: { 'node-role.kubernetes.io/control-plane': '' },
    }),
    buildNode({ name: 'cpu1', ready: 'True', ip: '192.168.1.11', created: days(200) }),
    buildNode({ name: 'cpu2', ready: 'True', ip: '192.168.1.12', created: days(200) }),
    buildNode({ name: 'cpu3', ready: 'True', ip: '192.168.1.13', created: days(150) }),
    buildNode({
      name: 'nuc1',
      ready: 'Unknown',
      ip: '192.168.1.21',
      created: days(120),
      readySince: hours(3),
      labels: {
        ...PRESENT,
        'nvidia.com/gpu.product': 'NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED',
        'nvidia.com/gpu.count': '1',
        'nvidia.com/gpu.memory': '8188',
        'nvidia.com/gpu.replicas': '4',
        'nvidia.com/gpu.sharing-strategy': 'time-slicing',
        'nvidia.com/gpu.workload.config': 'vm-passthrough',
        'nvidia.com/gpu.family': 'ada-lovelace',
        'nvidia.com/cuda.driver-version.full': '550.127.05',
        'nvidia.com/cuda.runtime-version.full': '12.4',
        'nvidia.com/gfd.timestamp': String(Math.floor((now - 3 * 3_600_000 - 120_000) / 1000)),
      },
      capacity: { 'nvidia.com/gpu': '0' },
    }),
    buildNode({
      name: 'nuc2',
      ready: 'Unknown',
      ip: '192.168.1.22',
      created: days(120),
      readySince: hours(3),
      labels: { ...PRESENT, 'nvidia.com/gpu.workload.config': 'vm-passthrough' },
    }),
    buildNode({
      name: 'omen',
      ready: 'Unknown',
      ip: '192.168.1.23',
      created: days(90),
      readySince: hours(3),
      labels: { ...PRESENT, 'nvidia.com/gpu.workload.config': 'vm-passthrough' },
    }),
    buildNode({
      name: 'omen2',
      ready: 'False',
      ip: '192.168.1.24',
      created: days(60),
      readySince: hours(1),
      readyReason: 'KubeletNotReady',
      readyMessage: OMEN2_MESSAGE,
      labels: { ...PRESENT, 'nvidia.com/gpu.workload.config': 'container' },
    }),
  ];
}
