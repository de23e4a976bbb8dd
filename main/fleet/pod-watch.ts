/**
 * The engine's binding of the generic list+watch machinery to the Pods that hold GPUs: every namespace,
 * narrowed by the server to live pods (the field selector the scheduler and kubelet use, shared/real-api/12
 * §24), and of those only the pods that request a GPU resource are kept (trimGpuPod); the rest are skipped
 * as they arrive, not counted as refused. Keyed `namespace/name`.
 */
import { type GpuPod, podKey, trimGpuPod, wantsGpu } from '../inventory/gpu-pod.ts';
import { jsonEqual } from '../inventory/json-equal.ts';
import type { WatchedResource } from '../kube/watched-resource.ts';

/** Pods listed at most per cluster: twice the 150,000 Kubernetes supports. */
export const MAX_PODS = 300_000;
/** Pods are larger than nodes' trimmed share of a page, and many: client-go's reflector pages by 500. */
export const POD_PAGE_SIZE = 500;

export const LIVE_PODS_SELECTOR = 'status.phase!=Succeeded,status.phase!=Failed';

export const GPU_PODS: WatchedResource<GpuPod> = {
  path: '/api/v1/pods',
  fieldSelector: LIVE_PODS_SELECTOR,
  singular: 'pod',
  plural: 'pods',
  trim: trimGpuPod,
  skip: (raw) => !wantsGpu(raw),
  nameOf: podKey,
  keyOfMeta: (meta) =>
    typeof meta.namespace === 'string' && typeof meta.name === 'string'
      ? `${meta.namespace}/${meta.name}`
      : null,
  same: jsonEqual,
  maxItems: MAX_PODS,
};
