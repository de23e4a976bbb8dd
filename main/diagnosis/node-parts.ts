/**
 * Pure readers of one raw v1 Node (as a GET returns it) for the node detail: every condition with whether
 * it is a problem, taints, cordon, system info, and the GPU facts GPU Feature Discovery labels carry beyond
 * the inventory entry. Every string from the cluster passes the text gate (`shownText()`: clusterText and secret redaction); lists are capped.
 */

import type { Quarantine } from '../../common/gpu-why.ts';
import { isObj, type JsonRecord } from '../../common/json-guards.ts';
import type {
  NodeConditionView,
  NodeGpuFacts,
  NodeSystemView,
  NodeTaintView,
} from '../../common/node-detail.ts';
import { shownText } from '../log/redact.ts';

const text = (v: unknown, max?: number): string | null => {
  const t = shownText(v, max);
  return t === '' ? null : t;
};
/** An RFC 3339 time as the API sent it, or null when it is not one (never shown raw). */
const time = (v: unknown): string | null =>
  typeof v === 'string' && v.length <= 40 && Number.isFinite(Date.parse(v)) ? v : null;

/** More conditions or taints than any real node has: the rest are dropped. */
export const MAX_CONDITIONS = 32;
export const MAX_TAINTS = 32;

/**
 * Whether a condition says something is wrong. Ready is healthy only when True; every other node
 * condition (MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable, and node-problem-detector's
 * KernelDeadlock, ReadonlyFilesystem, FrequentKubeletRestart, …) is a problem when True.
 */
export function isProblemCondition(type: string, status: string): boolean {
  return type === 'Ready' ? status !== 'True' : status === 'True';
}

export function readConditions(node: unknown): NodeConditionView[] {
  const status = isObj(node) && isObj(node.status) ? node.status : {};
  const raw = Array.isArray(status.conditions) ? status.conditions : [];
  const out: NodeConditionView[] = [];
  for (const c of raw) {
    if (out.length >= MAX_CONDITIONS) break;
    if (!isObj(c)) continue;
    const type = text(c.type, 80);
    if (type === null) continue;
    const st = text(c.status, 20) ?? 'Unknown';
    out.push({
      type,
      status: st,
      reason: text(c.reason, 120),
      message: text(c.message),
      since: time(c.lastTransitionTime),
      heartbeat: time(c.lastHeartbeatTime),
      problem: isProblemCondition(type, st),
    });
  }
  return out;
}

export function readTaints(node: unknown): NodeTaintView[] {
  const spec = isObj(node) && isObj(node.spec) ? node.spec : {};
  const raw = Array.isArray(spec.taints) ? spec.taints : [];
  const out: NodeTaintView[] = [];
  for (const t of raw) {
    if (out.length >= MAX_TAINTS) break;
    if (!isObj(t)) continue;
    const key = text(t.key, 253);
    const effect = text(t.effect, 40);
    if (key === null || effect === null) continue;
    out.push({ key, value: text(t.value, 63), effect });
  }
  return out;
}

export function readUnschedulable(node: unknown): boolean {
  return isObj(node) && isObj(node.spec) && node.spec.unschedulable === true;
}

export function readSystem(node: unknown): NodeSystemView {
  const status = isObj(node) && isObj(node.status) ? node.status : {};
  const info = isObj(status.nodeInfo) ? status.nodeInfo : {};
  return {
    kubeletVersion: text(info.kubeletVersion, 64),
    osImage: text(info.osImage, 120),
    kernelVersion: text(info.kernelVersion, 120),
    containerRuntime: text(info.containerRuntimeVersion, 120),
    architecture: text(info.architecture, 32),
  };
}

function labelsOf(node: unknown): JsonRecord {
  return isObj(node) && isObj(node.metadata) && isObj(node.metadata.labels) ? node.metadata.labels : {};
}

const label = (labels: JsonRecord, key: string): string | null =>
  Object.hasOwn(labels, key) ? text(labels[key], 63) : null;

/** "major.minor.rev" from GFD's split labels, when the `.full` label is missing (older GFD). */
function version(labels: JsonRecord, prefix: string, parts: readonly string[]): string | null {
  const values = parts.map((p) => label(labels, `${prefix}.${p}`));
  if (values[0] === null) return null;
  return values.filter((v): v is string => v !== null).join('.');
}

/**
 * GPU facts from GPU Feature Discovery labels. `gfdAgeSeconds` is the age of `nvidia.com/gfd.timestamp`
 * (Unix seconds) at `now` (epoch ms); a timestamp in the future or unparseable gives null.
 */
export function readGpuFacts(node: unknown, now: number): NodeGpuFacts {
  const labels = labelsOf(node);
  const stamp = label(labels, 'nvidia.com/gfd.timestamp');
  const seconds = stamp !== null && /^\d{1,12}$/.test(stamp) ? Number(stamp) : null;
  const age = seconds === null ? null : Math.floor(now / 1000) - seconds;
  return {
    family: label(labels, 'nvidia.com/gpu.family'),
    driver:
      label(labels, 'nvidia.com/cuda.driver-version.full') ??
      version(labels, 'nvidia.com/cuda.driver', ['major', 'minor', 'rev']),
    cuda:
      label(labels, 'nvidia.com/cuda.runtime-version.full') ??
      version(labels, 'nvidia.com/cuda.runtime', ['major', 'minor']),
    migConfig: label(labels, 'nvidia.com/mig.config'),
    migState: label(labels, 'nvidia.com/mig.config.state'),
    gfdAgeSeconds: age !== null && age >= 0 ? age : null,
  };
}

/** NVSentinel's record of a quarantine: the annotation names the health event that cordoned the node. */
export const QUARANTINE_ANNOTATION = 'quarantineHealthEvent';

/**
 * What NVSentinel's fault quarantine wrote on the node, or null: the annotation holds the health event
 * as JSON (its `checkName` and `message`); one that does not parse still says the node is quarantined.
 */
export function readQuarantine(node: unknown): Quarantine | null {
  const meta = isObj(node) && isObj(node.metadata) ? node.metadata : {};
  const annotations = isObj(meta.annotations) ? meta.annotations : {};
  const raw = annotations[QUARANTINE_ANNOTATION];
  if (typeof raw !== 'string') return null;
  let event: unknown = null;
  try {
    event = raw.length <= 64 * 1024 ? JSON.parse(raw) : null;
  } catch {
    event = null;
  }
  // A list of events (newer NVSentinel) or one event: the first names the cause.
  const first: unknown = Array.isArray(event) ? event[0] : event;
  const e: JsonRecord = isObj(first) ? first : {};
  return { checkName: text(e.checkName, 80), message: text(e.message, 300) };
}
