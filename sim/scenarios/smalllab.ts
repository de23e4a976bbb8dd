// smalllab[:MS] — a small lab for the demo's second cluster: an A100 split by MIG (mixed strategy), an RTX
// 4090 shared by time-slicing, an A30 split by MIG (single strategy: the product label names the profile), a
// CPU control plane, GPU pods on them and one the scheduler could not place, and an L4 node whose kubelet flaps now and then (PLEG
// not healthy): Ready for 15 s after start, then down and up again every MS (default 40 s), each change
// with the event the kubelet would post. A newcomer sees a drop, its alert, the recovery within a minute.
import type { Core } from '../core.ts';
import { nowIso, obj } from '../json.ts';
import { podCreate } from '../pods.ts';
import type { KObj, ResourceDef } from '../types.ts';
import { pendingGpuPod, SMALLLAB_PENDING } from './gpu-pods.ts';
import { buildNode, readyCondition, taintsFor } from './node.ts';

const PRESENT = { 'nvidia.com/gpu.present': 'true', 'feature.node.kubernetes.io/pci-10de.present': 'true' };
const FLAPPER = 'lab-l4';
export const PLEG_MESSAGE = 'PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s';

export function smallLabNodes(now = Date.now()): KObj[] {
  const days = (d: number) => new Date(now - d * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const gfd = (product: string, count: number, memory: number, family: string) => ({
    ...PRESENT,
    'nvidia.com/gpu.product': product,
    'nvidia.com/gpu.count': String(count),
    'nvidia.com/gpu.memory': String(memory),
    'nvidia.com/gpu.workload.config': 'container',
    'nvidia.com/gpu.family': family,
    'nvidia.com/cuda.driver-version.full': '550.127.05',
    'nvidia.com/cuda.runtime-version.full': '12.4',
    'nvidia.com/gfd.timestamp': String(Math.floor(now / 1000) - 45),
  });
  return [
    buildNode({
      name: 'lab-cp',
      ready: 'True',
      ip: '10.20.0.10',
      created: days(40),
      labels: { 'node-role.kubernetes.io/control-plane': '' },
    }),
    buildNode({
      name: 'lab-a100',
      ready: 'True',
      ip: '10.20.0.21',
      created: days(30),
      labels: {
        ...gfd('NVIDIA-A100-SXM4-40GB', 1, 40960, 'ampere'),
        'nvidia.com/mig.strategy': 'mixed',
        'nvidia.com/mig.config': 'all-balanced',
        'nvidia.com/mig.config.state': 'success',
        'nvidia.com/mig-1g.5gb.count': '2',
        'nvidia.com/mig-2g.10gb.count': '1',
        'nvidia.com/mig-3g.20gb.count': '1',
      },
      capacity: {
        'nvidia.com/mig-1g.5gb': '2',
        'nvidia.com/mig-2g.10gb': '1',
        'nvidia.com/mig-3g.20gb': '1',
      },
    }),
    buildNode({
      name: 'lab-4090',
      ready: 'True',
      ip: '10.20.0.22',
      created: days(25),
      labels: {
        ...gfd('NVIDIA-GeForce-RTX-4090-SHARED', 1, 24564, 'ada-lovelace'),
        'nvidia.com/gpu.replicas': '4',
        'nvidia.com/gpu.sharing-strategy': 'time-slicing',
      },
      capacity: { 'nvidia.com/gpu.shared': '4' },
    }),
    buildNode({
      name: FLAPPER,
      ready: 'True',
      ip: '10.20.0.23',
      created: days(12),
      labels: gfd('NVIDIA-L4', 1, 23034, 'ada-lovelace'),
      capacity: { 'nvidia.com/gpu': '1' },
    }),
    buildNode({
      name: 'lab-a30',
      ready: 'True',
      ip: '10.20.0.24',
      created: days(8),
      labels: {
        ...gfd('NVIDIA-A30-MIG-1g.6gb', 4, 5952, 'ampere'),
        'nvidia.com/mig.strategy': 'single',
        'nvidia.com/mig.config': 'all-1g.6gb',
        'nvidia.com/mig.config.state': 'success',
      },
      capacity: { 'nvidia.com/gpu': '4' },
    }),
  ];
}

function pod(namespace: string, name: string, node: string, resource: string, n: number): KObj {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name, namespace, labels: { app: name.replace(/-[a-z0-9]{5}$/, '') } },
    spec: {
      nodeName: node,
      containers: [
        {
          name: 'main',
          image: 'nvcr.io/nvidia/pytorch:24.10-py3',
          resources: { limits: { [resource]: String(n) } },
        },
      ],
    },
    status: { phase: 'Running' },
  };
}

export const SMALL_LAB_NAMESPACES = ['research'];

export function seedSmallLab(core: Core): void {
  const def = core.registry.find('', 'v1', 'pods') as ResourceDef;
  for (const p of [
    pod('research', 'finetune-7b-q8m2d', 'lab-a100', 'nvidia.com/mig-3g.20gb', 1),
    pod('research', 'notebook-alice', 'lab-a100', 'nvidia.com/mig-1g.5gb', 1),
    pod('research', 'sd-webui-k2j9x', 'lab-4090', 'nvidia.com/gpu.shared', 2),
    pod('research', 'embeddings-x7c1p', FLAPPER, 'nvidia.com/gpu', 1),
    pod('research', 'eval-harness-m3v8q', 'lab-a30', 'nvidia.com/gpu', 1),
    pendingGpuPod(SMALLLAB_PENDING, Date.now()),
  ]) {
    podCreate(core, p);
    core.write(def, p, undefined);
  }
}

/** The kubelet's event about the flapping node; the same event again bumps its count, as the kubelet does. */
function postEvent(core: Core, ready: boolean): void {
  const def = core.registry.find('', 'v1', 'events') as ResourceDef;
  const reason = ready ? 'NodeReady' : 'NodeNotReady';
  const name = `${FLAPPER}.${ready ? '18a0c0ffee000001' : '18a0c0ffee000002'}`;
  const prev = core.get(def, 'default', name);
  const now = nowIso();
  const next: KObj = prev
    ? { ...structuredClone(prev), lastTimestamp: now, count: Number(prev.count ?? 1) + 1 }
    : {
        kind: 'Event',
        apiVersion: 'v1',
        metadata: { name, namespace: 'default' },
        involvedObject: { kind: 'Node', name: FLAPPER, apiVersion: 'v1' },
        reason,
        message: `Node ${FLAPPER} status is now: ${reason}`,
        source: { component: 'kubelet', host: FLAPPER },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
        type: 'Normal',
        eventTime: null,
        reportingComponent: 'kubelet',
        reportingInstance: FLAPPER,
      };
  core.write(def, next, prev);
}

function setReady(core: Core, ready: boolean): void {
  const def = core.registry.find('', 'v1', 'nodes') as ResourceDef;
  const prev = core.get(def, '', FLAPPER);
  if (!prev) return;
  const status = obj(prev.status);
  const conds = (Array.isArray(status.conditions) ? status.conditions : []).filter(
    (c) => obj(c).type !== 'Ready',
  );
  const cond = ready
    ? readyCondition('True', nowIso())
    : readyCondition('False', nowIso(), 'KubeletNotReady', PLEG_MESSAGE);
  core.write(
    def,
    {
      ...prev,
      spec: { ...obj(prev.spec), taints: taintsFor(ready ? 'True' : 'False', false) },
      status: { ...status, conditions: [...conds, cond] },
    },
    prev,
  );
  postEvent(core, ready);
}

/** Starts the flapping; returns its stop function. */
export function startSmallLabFlap(core: Core, scenario: string): () => void {
  const ms = Number(scenario.split(':')[1] ?? 40_000) || 40_000;
  let ready = true;
  let timer: NodeJS.Timeout;
  const flip = (after: number) => {
    timer = setTimeout(() => {
      ready = !ready;
      setReady(core, ready);
      flip(ms);
    }, after);
    timer.unref();
  };
  flip(Math.min(15_000, ms));
  return () => clearTimeout(timer);
}
