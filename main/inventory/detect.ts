/**
 * Is this a GPU node? Any one kind of NVIDIA evidence is enough, because agents fail independently:
 * a dead node loses its GPU Feature Discovery labels but keeps its capacity and NFD labels, a
 * passthrough node has labels but `nvidia.com/gpu: 0`, a renamed resource has no `nvidia.com/gpu`.
 */
import { isInventoryLabel, LABEL, RESOURCE_PREFIX } from './labels.ts';
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
  // A resource counts even at 0: the device plugin registered it, so the hardware was there.
  return hasNvidiaKey(facts.capacity) || hasNvidiaKey(facts.allocatable);
}

function hasNvidiaKey(resources: Record<string, string>): boolean {
  for (const key of Object.keys(resources)) if (key.startsWith(RESOURCE_PREFIX)) return true;
  return false;
}
