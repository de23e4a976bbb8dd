// Controls of the simulated DCGM exporters: raise an XID, pin a temperature or utilisation, pull a GPU off
// the bus (it disappears from the metrics, as a GPU that fell off does), and add exporter pods to nodes.
import type { Core } from './core.ts';
import type { SimGpu } from './dcgm.ts';
import { EXPORTER_LABEL, EXPORTER_PORT, exporterFor } from './dcgm-proxy.ts';
import { podCreate, serviceAccount } from './pods.ts';
import type { KObj, ResourceDef } from './types.ts';

export interface DcgmControl {
  /** Sets DCGM_FI_DEV_XID_ERRORS of one GPU (0 clears it). */
  setGpuXid(node: string, gpu: number, xid: number): void;
  /** Pins a GPU's temperature in °C (null: back to the simulated wave). */
  setGpuTemperature(node: string, gpu: number, celsius: number | null): void;
  setGpuUtilization(node: string, gpu: number, percent: number | null): void;
  /** The GPU disappears from the exporter's metrics. */
  removeGpu(node: string, gpu: number): void;
  /** A running exporter pod (namespace gpu-operator, a pod IP, port 9400) on each node; returns the pod names. */
  addDcgmExporters(nodes: string[]): string[];
}

const NS = 'gpu-operator';

/** The pod IP of the n-th simulated exporter: 10.244.x.y, a global-unicast address as a CNI hands out. */
function podIp(n: number): string {
  return `10.244.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
}

export function exporterPod(node: string, n: number): KObj {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name: `nvidia-dcgm-exporter-${node}`.slice(0, 63).replace(/[-.]+$/, ''),
      namespace: NS,
      labels: { app: EXPORTER_LABEL },
    },
    spec: {
      nodeName: node,
      containers: [
        {
          name: 'nvidia-dcgm-exporter',
          image: 'nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04',
          ports: [{ name: 'metrics', containerPort: EXPORTER_PORT, protocol: 'TCP' }],
        },
      ],
    },
    status: { phase: 'Running', podIP: podIp(n), podIPs: [{ ip: podIp(n) }] },
  };
}

export function makeDcgmControl(core: Core): DcgmControl {
  const gpuOf = (node: string, index: number): SimGpu => {
    const g = exporterFor(core, node).gpus.find((x) => x.index === index);
    if (!g) throw new Error(`node ${node} has no GPU ${index} in its exporter`);
    return g;
  };
  let added = 0;
  return {
    setGpuXid: (node, gpu, xid) => {
      gpuOf(node, gpu).xid = xid;
    },
    setGpuTemperature: (node, gpu, celsius) => {
      gpuOf(node, gpu).tempC = celsius;
    },
    setGpuUtilization: (node, gpu, percent) => {
      gpuOf(node, gpu).util = percent;
    },
    removeGpu: (node, gpu) => {
      const e = exporterFor(core, node);
      gpuOf(node, gpu);
      e.gpus = e.gpus.filter((g) => g.index !== gpu);
    },
    addDcgmExporters: (nodes) => {
      const def = (r: string) => core.registry.find('', 'v1', r) as ResourceDef;
      if (!core.get(def('namespaces'), '', NS)) {
        core.write(
          def('namespaces'),
          {
            kind: 'Namespace',
            apiVersion: 'v1',
            metadata: { name: NS, labels: { 'kubernetes.io/metadata.name': NS } },
            spec: { finalizers: ['kubernetes'] },
            status: { phase: 'Active' },
          },
          undefined,
        );
      }
      if (!core.get(def('serviceaccounts'), NS, 'default'))
        core.write(def('serviceaccounts'), serviceAccount(NS), undefined);
      return nodes.map((node) => {
        const pod = exporterPod(node, 1000 + added++);
        podCreate(core, pod);
        core.write(def('pods'), pod, core.get(def('pods'), NS, String(pod.metadata.name)));
        return String(pod.metadata.name);
      });
    },
  };
}
