/**
 * Reads the `status` of the in-cluster controller's GpuInventory as hostile input: anyone allowed to
 * write that object (or a broken controller) decides what is in it, and what we keep reaches the
 * window, the tray, notifications and the terminal. Only the fields of common/inventory.ts are kept,
 * each checked for type and range and capped; text goes through the text gate (control characters
 * out, one line, cut). An entry that fails is left out and counted among the omitted nodes (the totals
 * still count it); totals that contradict the list make the whole status invalid.
 *
 * Pure. Returns the status to use, or a sentence saying why there is none.
 */
import { clusterText } from '../../../common/cluster-text.ts';
import { dict } from '../../../common/dict.ts';
import type {
  GpuInventoryStatus,
  GpuNodeEntry,
  GpuProblemWords,
  GpuResource,
  LastSeenLabels,
  NodeReadiness,
} from '../../../common/inventory.ts';
import { isObj, type JsonRecord } from '../../../common/json-guards.ts';
import { isNodeName } from '../../inventory/node-facts.ts';
import { readFreeSummary } from './read-free.ts';

/** Far above the 5,000 nodes Kubernetes supports, and what a 1.5 MiB object can hold in compact form. */
export const MAX_STATUS_NODES = 20_000;
const MAX_COUNT = 1_000_000;
const MAX_GPUS_PER_NODE = 10_000;
const MAX_LIST = 32;
const MAX_PROBLEMS = 10;

export type StatusRead =
  | { ok: true; status: GpuInventoryStatus; dropped: number }
  | { ok: false; reason: string };

const int = (v: unknown, max: number): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max ? v : null;
const nullableInt = (v: unknown, max: number): number | null | undefined =>
  v === null ? null : (int(v, max) ?? undefined);
const text = (v: unknown, max: number): string | null => (typeof v === 'string' ? clusterText(v, max) : null);
const textOrNull = (v: unknown, max: number): string | null | undefined =>
  v === null ? null : typeof v === 'string' ? clusterText(v, max) || null : undefined;

/** An RFC 3339 time as Date.parse reads it, at most 64 characters. */
export function rfc3339(v: unknown): string | null {
  if (
    typeof v !== 'string' ||
    v.length > 64 ||
    !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(v)
  )
    return null;
  return Number.isFinite(Date.parse(v)) ? v : null;
}

export function readInventoryStatus(raw: unknown): StatusRead {
  if (!isObj(raw)) return { ok: false, reason: 'its GpuInventory has no status yet' };
  const total = int(raw.total_gpu_nodes, MAX_COUNT);
  const ready = int(raw.ready_gpu_nodes, MAX_COUNT);
  const gpus = int(raw.total_gpus, MAX_COUNT * 16);
  const observed = rfc3339(raw.observed_at);
  if (total === null || ready === null || gpus === null || observed === null || ready > total)
    return { ok: false, reason: 'its GpuInventory status is not valid (totals or time)' };
  if (!Array.isArray(raw.nodes) || raw.nodes.length > MAX_STATUS_NODES)
    return { ok: false, reason: 'its GpuInventory status has no valid node list' };
  const seen = new Set<string>();
  const nodes: GpuNodeEntry[] = [];
  let dropped = 0;
  for (const item of raw.nodes) {
    const entry = readEntry(item);
    if (entry === null || seen.has(entry.name)) dropped++;
    else {
      seen.add(entry.name);
      nodes.push(entry);
    }
  }
  const listedReady = nodes.filter((n) => n.ready).length;
  const omittedRaw = raw.nodes_omitted === undefined ? 0 : int(raw.nodes_omitted, MAX_COUNT);
  if (omittedRaw === null)
    return { ok: false, reason: 'its GpuInventory status has an invalid nodes_omitted' };
  if (nodes.length > total || listedReady > ready)
    return { ok: false, reason: 'its GpuInventory status lists more nodes than it counts' };
  const omitted = omittedRaw + dropped;
  const free = readFreeSummary(raw.free_gpus);
  const status: GpuInventoryStatus = {
    observed_at: observed,
    total_gpu_nodes: total,
    ready_gpu_nodes: ready,
    total_gpus: gpus,
    nodes,
    ...(raw.nodes_compacted === true ? { nodes_compacted: true } : {}),
    ...(omitted > 0 ? { nodes_omitted: omitted } : {}),
    ...(free !== undefined ? { free_gpus: free } : {}),
  };
  return { ok: true, status, dropped };
}

function readEntry(v: unknown): GpuNodeEntry | null {
  if (!isObj(v) || !isNodeName(v.name) || typeof v.ready !== 'boolean') return null;
  // Write-back leaves nulls out of its apply (status-writer.ts withoutNulls): absent reads as null.
  const product = v.product === undefined ? null : textOrNull(v.product, 253);
  const count = int(v.count, MAX_GPUS_PER_NODE);
  const memory = v.memory === undefined ? null : nullableInt(v.memory, MAX_COUNT * 100);
  const workload = v.workload === undefined ? null : textOrNull(v.workload, 63);
  if (product === undefined || count === null || memory === undefined || workload === undefined) return null;
  const entry: GpuNodeEntry = { name: v.name, ready: v.ready, product, count, memory, workload };
  readExtras(v, entry);
  return entry;
}

/** The optional extras: each kept only when well-formed, so one bad extra does not lose the node. */
function readExtras(v: JsonRecord, e: GpuNodeEntry): void {
  if (v.readiness === 'True' || v.readiness === 'False' || v.readiness === 'Unknown')
    e.readiness = v.readiness as NodeReadiness;
  const reason = textOrNull(v.not_ready_reason, 64);
  if (reason !== undefined) e.not_ready_reason = reason;
  if (v.not_ready_since === null || rfc3339(v.not_ready_since) !== null)
    e.not_ready_since = v.not_ready_since as string | null;
  const message = textOrNull(v.not_ready_message, 200);
  if (message !== undefined) e.not_ready_message = message;
  const cause = textOrNull(v.gpu_cause, 200);
  if (typeof cause === 'string') e.gpu_cause = cause;
  if (typeof v.cordoned === 'boolean') e.cordoned = v.cordoned;
  const capacity = nullableInt(v.capacity_gpus, MAX_GPUS_PER_NODE);
  if (capacity !== undefined) e.capacity_gpus = capacity;
  const allocatable = nullableInt(v.allocatable_gpus, MAX_GPUS_PER_NODE);
  if (allocatable !== undefined) e.allocatable_gpus = allocatable;
  if (Array.isArray(v.resources) && v.resources.length <= MAX_LIST) {
    const rs = v.resources.map(readResource);
    if (rs.every((r) => r !== null)) e.resources = rs as GpuResource[];
  }
  if (v.mig === null) e.mig = null;
  else if (isObj(v.mig) && Array.isArray(v.mig.profiles) && v.mig.profiles.length <= MAX_LIST) {
    const strategy = textOrNull(v.mig.strategy, 63);
    const profiles = v.mig.profiles.map((p) =>
      isObj(p) && typeof p.profile === 'string' && int(p.count, MAX_GPUS_PER_NODE) !== null
        ? { profile: clusterText(p.profile, 63), count: p.count as number }
        : null,
    );
    if (strategy !== undefined && profiles.every((p) => p !== null))
      e.mig = { strategy, profiles: profiles as { profile: string; count: number }[] };
  }
  if (v.sharing === null) e.sharing = null;
  else if (isObj(v.sharing)) {
    const strategy = textOrNull(v.sharing.strategy, 63);
    const replicas = nullableInt(v.sharing.replicas, MAX_GPUS_PER_NODE);
    if (strategy !== undefined && replicas !== undefined) e.sharing = { strategy, replicas };
  }
  const lastSeen = readLastSeen(v.last_seen);
  if (lastSeen !== undefined) e.last_seen = lastSeen;
  if (
    Array.isArray(v.problems) &&
    v.problems.length <= MAX_PROBLEMS &&
    v.problems.every((p) => typeof p === 'string')
  ) {
    const sentences = v.problems.map((p) => text(p, 200) ?? '');
    const words = readProblemWords(v.problem_words);
    // Facts are kept only beside their sentences, one each (the window words them; unknown codes fall
    // back to the sentence); a sentence the text gate empties goes with its facts, so the pairs stay aligned.
    const paired = words !== null && words.length === sentences.length;
    const kept = sentences.flatMap((p, i) => (p === '' ? [] : [i]));
    e.problems = kept.map((i) => sentences[i] as string);
    if (paired && kept.length > 0) e.problem_words = kept.map((i) => words[i] as GpuProblemWords);
  }
}

/** Problem facts as the controller wrote them: at most MAX_PROBLEMS, 8 values each, all text capped. */
function readProblemWords(raw: unknown): GpuProblemWords[] | null {
  if (!Array.isArray(raw) || raw.length > MAX_PROBLEMS) return null;
  const out: GpuProblemWords[] = [];
  for (const w of raw) {
    if (!isObj(w) || typeof w.code !== 'string' || w.code.length > 40 || !isObj(w.vars)) return null;
    const entries = Object.entries(w.vars);
    if (entries.length > 8 || entries.some(([k, x]) => k.length > 40 || typeof x !== 'string')) return null;
    out.push({ code: w.code, vars: dict(entries.map(([k, x]) => [k, clusterText(x, 200)])) });
  }
  return out;
}

function readResource(r: unknown): GpuResource | null {
  if (!isObj(r) || typeof r.name !== 'string') return null;
  const capacity = int(r.capacity, MAX_GPUS_PER_NODE);
  const allocatable = int(r.allocatable, MAX_GPUS_PER_NODE);
  if (capacity === null || allocatable === null) return null;
  return { name: clusterText(r.name, 253), capacity, allocatable };
}

function readLastSeen(v: unknown): LastSeenLabels | null | undefined {
  if (v === null) return null;
  if (!isObj(v)) return undefined;
  const product = textOrNull(v.product, 253);
  const count = int(v.count, MAX_GPUS_PER_NODE);
  const memory = nullableInt(v.memory, MAX_COUNT * 100);
  if (product === undefined || count === null || memory === undefined) return undefined;
  return { product, count, memory };
}
