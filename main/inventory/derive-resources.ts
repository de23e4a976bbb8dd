/**
 * The node's `nvidia.com/*` extended resources as integers, the GPU-slot totals, and the facts about
 * them worth telling the user (the device plugin withdrawing devices, unparseable quantities).
 */
import type { GpuProblemWords, GpuResource } from '../../common/inventory.ts';
import { isGpuSlotResource, RESOURCE_PREFIX } from './labels.ts';
import type { NodeFacts } from './node-facts.ts';
import { parseCountQuantity, quote } from './parse.ts';
import { problem } from './problem.ts';
import { entryKey, sharePool } from './share.ts';

export interface ResourceFacts {
  /** Every `nvidia.com/*` resource in capacity or allocatable, sorted by name. */
  resources: GpuResource[];
  /**
   * Schedulable GPU slots: `nvidia.com/gpu` + `nvidia.com/gpu.shared` + every `nvidia.com/mig-*`.
   * These are what pods can request, so with time-slicing they count replicas and with MIG they count
   * instances, not physical GPUs (that is `count`). Passthrough/vGPU devices (and the Network Operator's
   * NICs) are listed in `resources` but not summed: pods cannot request them as GPU slots.
   * Null when the node advertises none of these resources.
   */
  capacityGpus: number | null;
  allocatableGpus: number | null;
  problems: GpuProblemWords[];
}

export function deriveResources(facts: NodeFacts): ResourceFacts {
  const problems: GpuProblemWords[] = [];
  const names = new Set<string>();
  for (const key of Object.keys(facts.capacity)) if (key.startsWith(RESOURCE_PREFIX)) names.add(key);
  for (const key of Object.keys(facts.allocatable)) if (key.startsWith(RESOURCE_PREFIX)) names.add(key);
  const resources: GpuResource[] = [];
  let capacityGpus: number | null = null;
  let allocatableGpus: number | null = null;
  for (const name of [...names].sort()) {
    const capacity = quantity(facts.capacity[name], name, 'capacity', problems);
    const allocatable = quantity(facts.allocatable[name], name, 'allocatable', problems);
    resources.push({ name, capacity, allocatable });
    if (allocatable < capacity) {
      problems.push(problem('withdrawn', { resource: name, withdrawn: capacity - allocatable, capacity }));
    } else if (allocatable > capacity) {
      problems.push(problem('aboveCapacity', { resource: name, allocatable, capacity }));
    }
    if (isGpuSlotResource(name)) {
      capacityGpus = (capacityGpus ?? 0) + capacity;
      allocatableGpus = (allocatableGpus ?? 0) + allocatable;
    }
  }
  return { resources: shareResources(resources), capacityGpus, allocatableGpus, problems };
}

/**
 * One frozen list per distinct set of resources (share.ts): most GPU nodes advertise the same ones, and
 * the list is kept in every entry. Frozen, so GpuResource[] here is read-only in fact if not in type.
 */
const resourceLists = sharePool<GpuResource[]>((list) => {
  for (const r of list) Object.freeze(r);
  Object.freeze(list);
});

function shareResources(resources: GpuResource[]): GpuResource[] {
  let key = '';
  for (const r of resources) key += `${entryKey(r.name)}${r.capacity}/${r.allocatable};`;
  return resourceLists.share(key, resources) as GpuResource[];
}

function quantity(
  raw: string | undefined,
  name: string,
  which: 'capacity' | 'allocatable',
  problems: GpuProblemWords[],
): number {
  if (raw === undefined) return 0;
  const parsed = parseCountQuantity(raw);
  if (parsed.ok) return parsed.value;
  problems.push(
    problem('quantityValue', { resource: name, field: which, value: quote(raw), why: parsed.code }),
  );
  return 0;
}
