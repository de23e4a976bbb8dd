// Builds realistic v1 Node objects (conditions, addresses, nodeInfo, images, managedFields) for scenarios.
import { createHash } from 'node:crypto';
import type { Json, JsonObject, KObj } from '../types.ts';

export interface NodeSpec {
  name: string;
  labels?: Record<string, string>;
  ready: 'True' | 'False' | 'Unknown';
  ip: string;
  capacity?: Record<string, string>;
  allocatable?: Record<string, string>;
  images?: number;
  created: string;
  kubeletVersion?: string;
  unschedulable?: boolean;
  /** When the Ready condition last changed (default: `created`). */
  readySince?: string;
  readyReason?: string;
  readyMessage?: string;
  /** Extra conditions (node-problem-detector style: KernelDeadlock, ReadonlyFilesystem…). */
  conditions?: JsonObject[];
}

const IMAGES = [
  'nvcr.io/nvidia/k8s-device-plugin',
  'nvcr.io/nvidia/gpu-feature-discovery',
  'nvcr.io/nvidia/k8s/dcgm-exporter',
  'nvcr.io/nvidia/gpu-operator',
  'nvcr.io/nvidia/k8s/container-toolkit',
  'nvcr.io/nvidia/driver',
  'registry.k8s.io/kube-proxy',
  'docker.io/calico/node',
  'docker.io/calico/cni',
  'quay.io/prometheus/node-exporter',
  'registry.k8s.io/pause',
  'docker.io/library/busybox',
  'ghcr.io/kube-vip/kube-vip',
  'registry.k8s.io/coredns/coredns',
];

function hex(s: string, n: number): string {
  return createHash('sha256').update(s).digest('hex').slice(0, n);
}

function uuid(s: string): string {
  const h = hex(s, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function condition(type: string, status: string, reason: string, message: string, t: string): JsonObject {
  return { type, status, lastHeartbeatTime: t, lastTransitionTime: t, reason, message };
}

export function readyCondition(
  status: 'True' | 'False' | 'Unknown',
  t: string,
  reason?: string,
  message?: string,
): JsonObject {
  if (status === 'True')
    return condition(
      'Ready',
      'True',
      reason ?? 'KubeletReady',
      message ?? 'kubelet is posting ready status',
      t,
    );
  if (status === 'False')
    return condition(
      'Ready',
      'False',
      reason ?? 'KubeletNotReady',
      message ?? 'container runtime network not ready: NetworkReady=false',
      t,
    );
  return condition(
    'Ready',
    'Unknown',
    reason ?? 'NodeStatusUnknown',
    message ?? 'Kubelet stopped posting node status.',
    t,
  );
}

export function taintsFor(ready: string, unschedulable: boolean): JsonObject[] {
  const t: JsonObject[] = [];
  if (unschedulable) t.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
  if (ready === 'Unknown') {
    t.push(
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
    );
  } else if (ready === 'False') {
    t.push(
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
    );
  }
  return t;
}

const PRESSURE: readonly [string, string, string][] = [
  ['MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
  ['DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
];

function fieldsOf(keys: string[]): JsonObject {
  const out: JsonObject = { '.': {} };
  for (const k of keys) out[`f:${k}`] = {};
  return out;
}

export function buildNode(n: NodeSpec): KObj {
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': n.name,
    'kubernetes.io/os': 'linux',
    ...n.labels,
  };
  const t = n.created;
  const capacity = {
    cpu: '16',
    'ephemeral-storage': '959786032Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '65544240Ki',
    pods: '110',
    ...n.capacity,
  };
  const allocatable = {
    ...capacity,
    'ephemeral-storage': '884538805101',
    memory: '65441840Ki',
    ...n.allocatable,
  };
  const images: Json[] = [];
  for (let i = 0; i < (n.images ?? 6); i++) {
    const name = IMAGES[i % IMAGES.length] as string;
    const tag = `v${1 + (i % 3)}.${i % 17}.${i % 5}`;
    images.push({
      names: [`${name}@sha256:${hex(name + tag + n.name.length, 64)}`, `${name}:${tag}`],
      sizeBytes: 10_000_000 + ((i * 7919) % 900) * 1_000_000,
    });
  }
  const kubelet = n.kubeletVersion ?? 'v1.32.5';
  const managedFields: Json[] = [
    {
      manager: 'kubelet',
      operation: 'Update',
      apiVersion: 'v1',
      time: t,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': {
          'f:annotations': fieldsOf(['volumes.kubernetes.io/controller-managed-attach-detach']),
          'f:labels': fieldsOf([
            'beta.kubernetes.io/arch',
            'beta.kubernetes.io/os',
            'kubernetes.io/arch',
            'kubernetes.io/hostname',
            'kubernetes.io/os',
          ]),
        },
      },
    },
    {
      manager: 'kubelet',
      operation: 'Update',
      apiVersion: 'v1',
      time: t,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:status': {
          'f:allocatable': fieldsOf(Object.keys(allocatable)),
          'f:capacity': fieldsOf(Object.keys(capacity)),
          'f:conditions': {
            'k:{"type":"DiskPressure"}': fieldsOf(['lastHeartbeatTime']),
            'k:{"type":"MemoryPressure"}': fieldsOf(['lastHeartbeatTime']),
            'k:{"type":"PIDPressure"}': fieldsOf(['lastHeartbeatTime']),
            'k:{"type":"Ready"}': fieldsOf([
              'lastHeartbeatTime',
              'lastTransitionTime',
              'message',
              'reason',
              'status',
            ]),
          },
          'f:images': {},
          'f:nodeInfo': fieldsOf(['bootID', 'kernelVersion', 'osImage']),
        },
      },
      subresource: 'status',
    },
    {
      manager: 'nfd-master',
      operation: 'Update',
      apiVersion: 'v1',
      time: t,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': fieldsOf(Object.keys(n.labels ?? {})) } },
    },
  ];
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: {
      name: n.name,
      uid: uuid(n.name),
      creationTimestamp: t,
      labels,
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///run/containerd/containerd.sock',
      },
      managedFields,
    },
    spec: {
      podCIDR: `10.244.${n.ip.split('.').pop()}.0/24`,
      podCIDRs: [`10.244.${n.ip.split('.').pop()}.0/24`],
      ...(n.unschedulable ? { unschedulable: true } : {}),
      taints: taintsFor(n.ready, n.unschedulable === true),
    },
    status: {
      capacity,
      allocatable,
      conditions: [
        ...PRESSURE.map(([type, reason, message]) =>
          n.ready === 'Unknown'
            ? // The node controller marks every condition Unknown when the kubelet stops posting status.
              condition(
                type,
                'Unknown',
                'NodeStatusUnknown',
                'Kubelet stopped posting node status.',
                n.readySince ?? t,
              )
            : condition(type, 'False', reason, message, t),
        ),
        readyCondition(n.ready, n.readySince ?? t, n.readyReason, n.readyMessage),
        ...(n.conditions ?? []),
      ],
      addresses: [
        { type: 'InternalIP', address: n.ip },
        { type: 'Hostname', address: n.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: hex(`m${n.name}`, 32),
        systemUUID: uuid(`s${n.name}`),
        bootID: uuid(`b${n.name}`),
        kernelVersion: '6.8.0-45-generic',
        osImage: 'Ubuntu 24.04.1 LTS',
        containerRuntimeVersion: 'containerd://1.7.22',
        kubeletVersion: kubelet,
        kubeProxyVersion: kubelet,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images,
    },
  };
}
