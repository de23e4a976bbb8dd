// GPU pods the scheduler could not place, for the demo clusters' free GPUs: unbound, phase Pending, with the
// PodScheduled condition kube-scheduler writes (reason Unschedulable and its message, the per-node reasons
// counted and sorted as strings, then what preemption found), as `kubectl describe pod` shows it.
import type { KObj } from '../types.ts';

export interface PendingPodSpec {
  namespace: string;
  name: string;
  resource: string;
  gpus: number;
  message: string;
  minutesAgo: number;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function pendingGpuPod(p: PendingPodSpec, now: number): KObj {
  const at = iso(now - p.minutesAgo * 60_000);
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: p.name, namespace: p.namespace, creationTimestamp: at, labels: { app: p.name } },
    spec: {
      containers: [
        {
          name: 'main',
          image: 'nvcr.io/nvidia/pytorch:24.10-py3',
          resources: { limits: { [p.resource]: String(p.gpus) } },
        },
      ],
    },
    status: {
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          lastProbeTime: null,
          lastTransitionTime: at,
          reason: 'Unschedulable',
          message: p.message,
        },
      ],
    },
  };
}

/** The home lab: the GPU nodes are tainted by the node controller (NotReady), the CPU nodes have no GPU. */
export const HOMELAB_PENDING: PendingPodSpec = {
  namespace: 'ml',
  name: 'train-lora-2gpu',
  resource: 'nvidia.com/gpu',
  gpus: 2,
  message:
    '0/8 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 3 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 4 Insufficient nvidia.com/gpu. preemption: 0/8 nodes are available: 4 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.',
  minutesAgo: 35,
};

/** The small lab: four whole GPUs on one node are more than any node has free. */
export const SMALLLAB_PENDING: PendingPodSpec = {
  namespace: 'research',
  name: 'pretrain-4gpu',
  resource: 'nvidia.com/gpu',
  gpus: 4,
  message:
    '0/5 nodes are available: 5 Insufficient nvidia.com/gpu. preemption: 0/5 nodes are available: 5 No preemption victims found for incoming pod.',
  minutesAgo: 12,
};
