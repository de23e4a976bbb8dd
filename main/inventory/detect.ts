/**
 * Is this a GPU node? Any one kind of NVIDIA evidence is enough, because agents fail independently:
 * a dead node loses its GPU Feature Discovery labels but keeps its capacity and NFD labels, a
 * passthrough node has labels but `nvidia.com/gpu: 0`, a passthrough GPU is advertised under its PCI
 * device name (labels.ts `isGpuDeviceResource`) and has no `nvidia.com/gpu`.
 */
import { isGpuEvidenceResource, isInventoryLabel, LABEL } from './labels.ts';
import type { NodeFacts } from './node-facts.ts';

/** Labels whose value says yes or no; all other inventory labels are evidence by being there at all. */
const BOOLEAN_LABELS: ReadonlySet<string> = new Set([LABEL.present, LABEL.pci]);

export function isGpuNode(facts: NodeFacts): boolean {
  for (const [key, value] of Object.entries(facts.labels)) {
    if (BOOLEAN_LABELS.has(key)) {
      if (value.trim().toLowerCase() === 'true') return true;
    } else if (isInventoryLabel(key)) {
      return true;
    }
  }
  // A resource counts even at 0: the device plugin registered it, so the hardware was there. Only GPU
  // resources count: the Network Operator's NICs (`nvidia.com/rdma_shared_device_a`…) are not GPUs.
  return hasGpuResource(facts.capacity) || hasGpuResource(facts.allocatable);
}

function hasGpuResource(resources: Record<string, string>): boolean {
  for (const key of Object.keys(resources)) if (isGpuEvidenceResource(key)) return true;
  return false;
}
