/**
 * The node label and resource names the inventory reads (NVIDIA GPU Feature Discovery, GPU Operator, NFD),
 * kept in one place so trimming, detection and derivation cannot disagree about them.
 */

export const LABEL = {
  product: 'nvidia.com/gpu.product',
  count: 'nvidia.com/gpu.count',
  memory: 'nvidia.com/gpu.memory',
  workload: 'nvidia.com/gpu.workload.config',
  present: 'nvidia.com/gpu.present',
  pci: 'feature.node.kubernetes.io/pci-10de.present',
  migStrategy: 'nvidia.com/mig.strategy',
  replicas: 'nvidia.com/gpu.replicas',
  sharingStrategy: 'nvidia.com/gpu.sharing-strategy',
} as const;

export const RESOURCE_PREFIX = 'nvidia.com/';
export const GPU_RESOURCE = 'nvidia.com/gpu';
export const SHARED_RESOURCE = 'nvidia.com/gpu.shared';
const MIG_RESOURCE_PREFIX = 'nvidia.com/mig-';

const MIG_COUNT_LABEL = /^nvidia\.com\/mig-(.+)\.count$/;
const USED_LABELS: ReadonlySet<string> = new Set(Object.values(LABEL));

/** The MIG profile a `nvidia.com/mig-<profile>.count` label is about, or null for any other key. */
export function migProfileOfLabel(key: string): string | null {
  return MIG_COUNT_LABEL.exec(key)?.[1] ?? null;
}

/**
 * The MIG profile a `nvidia.com/mig-<profile>` resource offers, or null for any other resource.
 * MIG combined with renamed time-slicing appends `.shared`; it is the same profile.
 */
export function migProfileOfResource(name: string): string | null {
  if (!name.startsWith(MIG_RESOURCE_PREFIX)) return null;
  const profile = name.slice(MIG_RESOURCE_PREFIX.length).replace(/\.shared$/, '');
  return profile === '' ? null : profile;
}

/** Whether a label key matters to the inventory (everything else is dropped when a node is trimmed). */
export function isInventoryLabel(key: string): boolean {
  return USED_LABELS.has(key) || MIG_COUNT_LABEL.test(key);
}

/** Extended resources counted as schedulable GPU slots: whole GPUs, time-sliced replicas, MIG instances. */
export function isGpuSlotResource(name: string): boolean {
  return name === GPU_RESOURCE || name === SHARED_RESOURCE || migProfileOfResource(name) !== null;
}

// The GPU Operator's sandbox device plugin (kubevirt-gpu-device-plugin) names a passthrough GPU after its
// pci.ids entry: upper-cased, spaces, '/' and '.' as '_', anything else but [A-Za-z0-9_] dropped, so
// "GA102GL [A10]" becomes `GA102GL_A10`; the entry always starts with the chip's code name (GA102GL,
// TU104GL, GH100, AD106M…). With no pci.ids entry it falls back to the 4-hex-digit device id (`2236`).
const PASSTHROUGH_DEVICE = /^[A-Z]{2}\d{3}[A-Z]{0,3}(?:_[A-Z0-9_]*)?$|^[0-9a-f]{4}$/;
// A vGPU is named after its mdev type with white space as '_': "GRID T4-16Q" → `GRID_T4-16Q`,
// "NVIDIA A10-12Q" → `NVIDIA_A10-12Q` (the size in GB and the series letter: Q, C, B, A).
const VGPU_DEVICE = /^(?:GRID|NVIDIA)_[A-Za-z0-9_]+-\d+[A-Z]$/;

/**
 * Passthrough and vGPU devices as the sandbox device plugin advertises them. NVIDIA's Network Operator
 * also advertises `nvidia.com/*` resources (`rdma_shared_device_a`, `hostdev`, `sriov_*`, names chosen
 * in its config, conventionally lower-case): those are NICs, and the shapes above keep them out.
 */
export function isGpuDeviceResource(name: string): boolean {
  if (!name.startsWith(RESOURCE_PREFIX)) return false;
  const device = name.slice(RESOURCE_PREFIX.length);
  return PASSTHROUGH_DEVICE.test(device) || VGPU_DEVICE.test(device);
}

/** Resources that are evidence of a GPU: GPU slots, passthrough GPUs and vGPUs (never NICs). */
export function isGpuEvidenceResource(name: string): boolean {
  return isGpuSlotResource(name) || isGpuDeviceResource(name);
}
