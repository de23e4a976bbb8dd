/**
 * Pure readers of an EventList (core/v1 form) and a PodList for the node detail: the node's recent events
 * newest first, and the pods on it that request GPUs with how many. Strings pass the text gate (`shownText()`: clusterText and secret redaction), counts
 * are bounded, and both lists are capped however long the server's answer was.
 */

import { isObj, type JsonRecord } from '../../common/json-guards.ts';
import type { GpuPodView, NodeEventView } from '../../common/node-detail.ts';
import { isGpuSlotResource } from '../inventory/labels.ts';
import { parseCountQuantity } from '../inventory/parse.ts';
import { shownText } from '../log/redact.ts';

const time = (v: unknown): string | null =>
  typeof v === 'string' && v.length <= 40 && Number.isFinite(Date.parse(v)) ? v : null;
const itemsOf = (list: unknown): unknown[] => (isObj(list) && Array.isArray(list.items) ? list.items : []);

export const MAX_EVENTS = 50;
export const MAX_PODS = 100;
/** A count or GPU number above this is not believed (shown as this). */
const MAX_COUNT = 1_000_000;

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? Math.min(v, MAX_COUNT) : null;
}

/** The last time an event was seen: lastTimestamp, a series' last observation, eventTime, or creation. */
function lastSeen(e: JsonRecord): string | null {
  const series = isObj(e.series) ? e.series : {};
  const meta = isObj(e.metadata) ? e.metadata : {};
  return (
    time(e.lastTimestamp) ??
    time(series.lastObservedTime) ??
    time(e.eventTime) ??
    time(meta.creationTimestamp)
  );
}

export function readEvents(list: unknown): NodeEventView[] {
  const out: NodeEventView[] = [];
  for (const raw of itemsOf(list)) {
    if (!isObj(raw)) continue;
    const source = isObj(raw.source) ? raw.source : {};
    const series = isObj(raw.series) ? raw.series : {};
    const meta = isObj(raw.metadata) ? raw.metadata : {};
    const uid = typeof meta.uid === 'string' && /^[\w-]{1,64}$/.test(meta.uid) ? meta.uid : null;
    out.push({
      ...(uid === null ? {} : { uid }),
      first: time(raw.firstTimestamp) ?? time(raw.eventTime) ?? time(meta.creationTimestamp),
      type: shownText(raw.type, 20) || 'Normal',
      reason: shownText(raw.reason, 120),
      message: shownText(raw.message),
      count: count(raw.count) ?? count(series.count) ?? 1,
      last: lastSeen(raw),
      source: shownText(source.component, 120) || shownText(raw.reportingComponent, 120) || null,
    });
  }
  const at = (e: NodeEventView) => (e.last === null ? Number.NEGATIVE_INFINITY : Date.parse(e.last));
  out.sort((a, b) => at(b) - at(a));
  return out.slice(0, MAX_EVENTS);
}

/** GPUs one container asks for: the larger of limit and request, per GPU slot resource, summed. */
function containerGpus(c: unknown): number {
  if (!isObj(c) || !isObj(c.resources)) return 0;
  const limits = isObj(c.resources.limits) ? c.resources.limits : {};
  const requests = isObj(c.resources.requests) ? c.resources.requests : {};
  let total = 0;
  for (const name of new Set([...Object.keys(limits), ...Object.keys(requests)])) {
    if (!isGpuSlotResource(name)) continue;
    const read = (v: unknown) => {
      const p = typeof v === 'string' ? parseCountQuantity(v) : null;
      return p?.ok ? p.value : typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : 0;
    };
    total += Math.max(read(limits[name]), read(requests[name]));
  }
  return Math.min(total, MAX_COUNT);
}

/** What the scheduler counts: the sum over containers, or the largest init container if that is more. */
function podGpus(spec: JsonRecord): number {
  const sum = (Array.isArray(spec.containers) ? spec.containers : []).reduce<number>(
    (n, c) => n + containerGpus(c),
    0,
  );
  const init = (Array.isArray(spec.initContainers) ? spec.initContainers : []).reduce<number>(
    (n, c) => Math.max(n, containerGpus(c)),
    0,
  );
  return Math.min(Math.max(sum, init), MAX_COUNT);
}

/** The pods that request GPUs, by namespace and name; a pod being deleted shows as Terminating. */
export function readGpuPods(list: unknown): GpuPodView[] {
  const out: GpuPodView[] = [];
  for (const raw of itemsOf(list)) {
    if (!isObj(raw) || !isObj(raw.metadata)) continue;
    const gpus = podGpus(isObj(raw.spec) ? raw.spec : {});
    if (gpus === 0) continue;
    const status = isObj(raw.status) ? raw.status : {};
    const phase = raw.metadata.deletionTimestamp ? 'Terminating' : shownText(status.phase, 20) || 'Unknown';
    out.push({
      namespace: shownText(raw.metadata.namespace, 63),
      name: shownText(raw.metadata.name, 253),
      phase,
      gpus,
    });
  }
  out.sort((a, b) => (a.namespace === b.namespace ? cmp(a.name, b.name) : cmp(a.namespace, b.namespace)));
  return out.slice(0, MAX_PODS);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
