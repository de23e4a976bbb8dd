/**
 * One GPU node's inventory entry from its trimmed facts: SPEC.md's six fields plus the extras
 * (readiness, cordon, resources, MIG, sharing, last-seen labels, problems). Never throws: every
 * doubtful fact becomes a problem instead: an English sentence in `problems` and its facts in
 * `problem_words` (the window words those in its language).
 */
import { gpuCause } from '../../common/gpu-why.ts';
import type {
  GpuNodeEntry,
  GpuProblemWords,
  GpuResource,
  LastSeenLabels,
  MigInfo,
  SharingInfo,
} from '../../common/inventory.ts';
import { shownText } from '../log/redact.ts';
import { deriveMig } from './derive-mig.ts';
import { deriveResources } from './derive-resources.ts';
import { deriveSharing } from './derive-sharing.ts';
import { readGpuLabels } from './gpu-labels.ts';
import { GPU_RESOURCE, isGpuDeviceResource, isGpuSlotResource, LABEL } from './labels.ts';
import type { NodeFacts } from './node-facts.ts';
import { englishProblem, problem } from './problem.ts';
import { entryKey, nullableKey, sharePool } from './share.ts';

/**
 * @param lastSeen what the node's labels said when last labelled (see last-seen.ts); shown only while
 *   the node has no product label now, since then it is the best evidence of what the node holds.
 */
export function deriveEntry(facts: NodeFacts, lastSeen: LastSeenLabels | null): GpuNodeEntry {
  const gpu = readGpuLabels(facts.labels);
  const res = deriveResources(facts);
  const problems = [...gpu.problems, ...res.problems];
  const mig = deriveMig(facts.labels, gpu.product, gpu.count, res.resources, problems);
  const sharing = deriveSharing(facts.labels, gpu.product, res.resources, problems);
  const hidden = hiddenGpus(gpu.product, gpu.workload, res.resources);
  if (hidden !== null) problems.push(hidden);
  const ready = facts.ready.status === 'True';
  const cause = facts.health.length === 0 ? null : gpuCause({ ...facts, conditions: facts.health });
  return {
    name: facts.name,
    ready,
    product: gpu.product,
    count: gpu.count,
    memory: gpu.memory,
    workload: gpu.workload,
    readiness: facts.ready.status,
    not_ready_reason: ready ? null : facts.ready.reason,
    not_ready_since: ready ? null : facts.ready.since,
    not_ready_message: ready ? null : shownText(facts.ready.message, NOT_READY_MESSAGE_MAX) || null,
    ...(cause === null ? {} : { gpu_cause: cause }),
    cordoned: facts.unschedulable,
    capacity_gpus: res.capacityGpus,
    allocatable_gpus: res.allocatableGpus,
    resources: res.resources.length ? res.resources : NONE,
    mig: mig === null ? null : shareMig(mig),
    sharing: sharing === null ? null : shareSharing(sharing),
    last_seen: gpu.product === null ? lastSeen : null,
    problems: problems.length ? problems.map(englishProblem) : NONE,
    ...(problems.length ? { problem_words: problems } : {}),
  };
}

/** The Ready message kept in an entry: enough for the "why" of a notification, small for write-back. */
const NOT_READY_MESSAGE_MAX = 200;

/** MIG and sharing facts, one frozen copy per distinct value (share.ts): nodes of one kind have the same. */
const migs = sharePool<MigInfo>((m) => {
  for (const p of m.profiles) Object.freeze(p);
  Object.freeze(m.profiles);
  Object.freeze(m);
});
const sharings = sharePool<SharingInfo>();

function shareMig(mig: MigInfo): MigInfo {
  let key = nullableKey(mig.strategy);
  for (const p of mig.profiles) key += `${entryKey(p.profile)}${p.count};`;
  return migs.share(key, mig) as MigInfo;
}

function shareSharing(sharing: SharingInfo): SharingInfo {
  return sharings.share(`${nullableKey(sharing.strategy)}${sharing.replicas ?? '-'}`, sharing);
}

/** Most entries have no problems (and many no resources): they share one frozen empty list. */
const NONE = Object.freeze([]) as unknown as never[];

/**
 * A product label with no schedulable GPU slot behind it: passthrough mode (the sandbox device
 * plugin advertises the GPU under its PCI device name), a renamed resource, or a missing plugin.
 */
function hiddenGpus(
  product: string | null,
  workload: string | null,
  resources: readonly GpuResource[],
): GpuProblemWords | null {
  if (product === null) return null;
  if (resources.some((r) => isGpuSlotResource(r.name) && r.capacity > 0)) return null;
  const gpu = resources.find((r) => r.name === GPU_RESOURCE);
  const others = resources.filter((r) => isGpuDeviceResource(r.name) && r.capacity > 0).map((r) => r.name);
  const expected = workload === 'vm-passthrough' || workload === 'vm-vgpu';
  return problem('hiddenGpus', {
    what: gpu === undefined ? 'noResource' : 'zeroCapacity',
    resource: GPU_RESOURCE,
    product,
    why: expected ? 'expectedWith' : others.length > 0 ? 'passedThrough' : 'pluginDown',
    ...(expected ? { label: LABEL.workload, workload } : {}),
    others: others.join(', '),
  });
}
