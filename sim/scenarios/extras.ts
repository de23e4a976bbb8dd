// What a real home lab has besides its Nodes: the default ServiceAccount of every namespace (a controller
// makes them), the Events the kubelet and the node controller wrote about the GPU nodes, and the pods that
// run on those nodes (GPU workloads requesting nvidia.com/gpu, and a dcgm-exporter that requests none).
import { createHash } from 'node:crypto';
import type { Core } from '../core.ts';
import { EXPORTER_PORT, seedExporter } from '../dcgm-proxy.ts';
import { podCreate, serviceAccount } from '../pods.ts';
import type { JsonObject, KObj, ResourceDef } from '../types.ts';
import { HOMELAB_PENDING, pendingGpuPod } from './gpu-pods.ts';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const hex = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

interface EventSpec {
  node: string;
  reason: string;
  message: string;
  type: 'Normal' | 'Warning';
  component: 'kubelet' | 'node-controller';
  /** Minutes ago: first and last time seen. */
  first: number;
  last: number;
  count: number;
}

function coreEvent(e: EventSpec, now: number): KObj {
  const first = iso(now - e.first * 60_000);
  const last = iso(now - e.last * 60_000);
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: {
      name: `${e.node}.${hex(`${e.node}/${e.reason}/${e.first}`)}`,
      namespace: 'default',
      creationTimestamp: first,
    },
    involvedObject: {
      kind: 'Node',
      name: e.node,
      apiVersion: 'v1',
    },
    reason: e.reason,
    message: e.message,
    source: e.component === 'kubelet' ? { component: 'kubelet', host: e.node } : { component: e.component },
    firstTimestamp: first,
    lastTimestamp: last,
    count: e.count,
    type: e.type,
    eventTime: null,
    reportingComponent: e.component,
    reportingInstance: e.component === 'kubelet' ? e.node : '',
  };
}

function homelabEvents(now: number): KObj[] {
  const down = (node: string, minutes: number): EventSpec => ({
    node,
    reason: 'NodeNotReady',
    message: `Node ${node} status is now: NodeNotReady`,
    type: 'Normal',
    component: 'node-controller',
    first: minutes,
    last: minutes,
    count: 1,
  });
  const specs: EventSpec[] = [
    down('nuc1', 180),
    down('nuc2', 180),
    down('omen', 180),
    {
      node: 'omen',
      reason: 'Rebooted',
      message: 'Node omen has been rebooted, boot id: 3f1c2a9e-5d4b-4c1e-9a7f-0b8d6e2c4a11',
      type: 'Warning',
      component: 'kubelet',
      first: 190,
      last: 190,
      count: 1,
    },
    {
      node: 'omen',
      reason: 'InvalidDiskCapacity',
      message: 'invalid capacity 0 on image filesystem',
      type: 'Warning',
      component: 'kubelet',
      first: 189,
      last: 189,
      count: 1,
    },
    {
      node: 'omen2',
      reason: 'NodeNotReady',
      message: 'Node omen2 status is now: NodeNotReady',
      type: 'Normal',
      component: 'kubelet',
      first: 60,
      last: 60,
      count: 1,
    },
    {
      node: 'omen2',
      reason: 'ContainerGCFailed',
      message:
        'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused"',
      type: 'Warning',
      component: 'kubelet',
      first: 58,
      last: 2,
      count: 57,
    },
  ];
  return specs.map((s) => coreEvent(s, now));
}

interface PodSpec {
  namespace: string;
  name: string;
  node: string;
  gpus: number;
  phase: string;
  image: string;
  minutesAgo: number;
}

function pod(p: PodSpec, now: number): KObj {
  const limits: JsonObject = p.gpus > 0 ? { 'nvidia.com/gpu': String(p.gpus) } : {};
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name: p.name,
      namespace: p.namespace,
      creationTimestamp: iso(now - p.minutesAgo * 60_000),
      labels: { app: p.name.replace(/-[a-z0-9]{5}$/, '') },
    },
    spec: {
      nodeName: p.node,
      containers: [
        {
          name: 'main',
          image: p.image,
          ...(p.gpus > 0 ? { resources: { limits } } : {}),
        },
      ],
    },
    status: { phase: p.phase },
  };
}

function homelabPods(now: number): KObj[] {
  const specs: PodSpec[] = [
    {
      namespace: 'ml',
      name: 'jupyter-gpu-0',
      node: 'nuc1',
      gpus: 1,
      phase: 'Running',
      image: 'quay.io/jupyter/pytorch-notebook:cuda12-2024-12-02',
      minutesAgo: 2_880,
    },
    {
      namespace: 'ml',
      name: 'llama-serve-7c9d5',
      node: 'omen2',
      gpus: 1,
      phase: 'Running',
      image: 'ghcr.io/ggerganov/llama.cpp:server-cuda',
      minutesAgo: 1_440,
    },
    {
      namespace: 'ml',
      name: 'whisper-batch-x2k4q',
      node: 'omen2',
      gpus: 1,
      phase: 'Pending',
      image: 'nvcr.io/nvidia/pytorch:24.10-py3',
      minutesAgo: 50,
    },
    ...['nuc1', 'nuc2', 'omen', 'omen2'].map((node, i) => ({
      namespace: 'gpu-operator',
      name: `nvidia-dcgm-exporter-${hex(node).slice(0, 5)}`,
      node,
      gpus: 0,
      phase: 'Running',
      image: 'nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04',
      minutesAgo: 10_000 + i,
    })),
  ];
  return specs.map((s) => withExporterIp(pod(s, now)));
}

/**
 * omen2 runs its GPU in container mode (the others are passed through to VMs): only its dcgm-exporter has a
 * pod IP and its metrics port, so only it answers through pods/proxy; the others answer "address not allowed".
 */
function withExporterIp(p: KObj): KObj {
  const spec = p.spec as JsonObject;
  if (spec.nodeName !== 'omen2' || !String(p.metadata.name).startsWith('nvidia-dcgm-exporter-')) return p;
  const [c] = spec.containers as JsonObject[];
  if (c) c.ports = [{ name: 'metrics', containerPort: EXPORTER_PORT, protocol: 'TCP' }];
  p.status = { phase: 'Running', podIP: '10.244.4.17', podIPs: [{ ip: '10.244.4.17' }] };
  return p;
}

export const HOMELAB_NAMESPACES = ['gpu-operator', 'ml'];

/** Seeds ServiceAccounts for `namespaces`, and for the home lab its events and pods. */
export function seedExtras(
  core: Core,
  scenario: string,
  namespaces: readonly string[],
  now = Date.now(),
): void {
  const def = (resource: string) => core.registry.find('', 'v1', resource) as ResourceDef;
  for (const ns of namespaces) core.write(def('serviceaccounts'), serviceAccount(ns), undefined);
  if (scenario !== 'homelab' && !scenario.startsWith('flapping')) return;
  for (const e of homelabEvents(now)) core.write(def('events'), e, undefined);
  seedExporter(core, 'omen2', 1, 'NVIDIA GeForce RTX 4070 SUPER', 12_282);
  for (const p of [...homelabPods(now), pendingGpuPod(HOMELAB_PENDING, now)]) {
    podCreate(core, p);
    core.write(def('pods'), p, undefined);
  }
}
