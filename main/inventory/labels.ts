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
