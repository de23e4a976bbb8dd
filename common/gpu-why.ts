/**
 * Pure: why a GPU node is in trouble, most telling first. The GPU health signals other tools write on
 * the node rank first, because they name the GPU's fault where Kubernetes only says "NotReady":
 *  1. NVIDIA NVSentinel: its conditions (`Gpu…Watch`, `SysLogsXIDError`, `SysLogsGPUFallenOff`,
 *     `NVSwitch…`, `DCGMError`; True is a fault), its fault-quarantine taints (user-configured, commonly
 *     `nvidia.com/gpu-xid-error`), and the cordon it records in the `quarantineHealthEvent` annotation;
 *  2. Node Problem Detector's GPU checks: any other GPU, XID or NVLink condition that is True;
 *  3. the EKS node monitoring agent's `AcceleratedHardwareReady` (False: reason `NvidiaXID<code>Error`);
 *  4. a cordon, with the taints that say why (Kubernetes keeps no reason for `kubectl cordon`);
 * then 5. the device plugin withdrawing GPUs (allocatable below capacity), 6. GPU labels gone,
 * 7. the Ready condition, 8. Warning events of the last hour (Kubernetes keeps events about an hour).
 */

import { clusterText } from './cluster-text.ts';
import type { GpuNodeEntry } from './inventory.ts';
import type { NodeConditionView, NodeEventView, NodeTaintView, WhyLine } from './node-detail.ts';
import { shortReason } from './node-reason.ts';

/** What NVSentinel's fault quarantine recorded when it cordoned the node (`quarantineHealthEvent`). */
export interface Quarantine {
  checkName: string | null;
  message: string | null;
}

export interface WhyInput {
  conditions: readonly NodeConditionView[];
  taints: readonly NodeTaintView[];
  unschedulable: boolean;
  quarantine: Quarantine | null;
  gpu: GpuNodeEntry | null;
  events: readonly NodeEventView[];
  now: number;
}

export const EVENTS_WINDOW_MS = 3_600_000;
const EVENTS_SHOWN = 5;

export const NVSENTINEL = /^(Gpu[A-Za-z]*Watch|GpuXidError|SysLogs[A-Za-z]+|NVSwitch[A-Za-z]+|DCGMError)$/;
export const GPU_WORDS = /gpu|xid|nvlink|nvidia|nvswitch/i;
export const EKS = 'AcceleratedHardwareReady';
/** The GPU Operator's own taint keeps other pods off GPU nodes: it is no fault. */
const ROUTINE_TAINTS = new Set(['nvidia.com/gpu', 'node.kubernetes.io/unschedulable']);

/**
 * XID codes a reason or message names: `NvidiaXID79Error`, `XID 79`, `xid=94`, and the kernel's own
 * `NVRM: Xid (PCI:0000:3b:00): 79, …`.
 */
export function xidsIn(...texts: (string | null)[]): number[] {
  const out = new Set<number>();
  for (const t of texts) {
    if (t === null) continue;
    for (const m of t.matchAll(/xid\s*(?:\([^)]{0,40}\)\s*:)?\s*[:=#]?\s*(\d{1,5})(?!\d)/gi)) {
      const n = Number(m[1]);
      if (n >= 1 && n <= 65_535) out.add(n);
    }
  }
  return [...out].sort((a, b) => a - b);
}

const said = (c: NodeConditionView) =>
  `${c.type}${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}`;
const taintText = (t: NodeTaintView) => `${t.key}${t.value === null ? '' : `=${t.value}`}:${t.effect}`;

function nvsentinel(i: WhyInput): WhyLine[] {
  const out: WhyLine[] = [];
  for (const c of i.conditions)
    if (NVSENTINEL.test(c.type) && c.status === 'True')
      out.push({
        source: 'nvsentinel',
        text: `NVSentinel: ${said(c)}`,
        xids: xidsIn(c.type, c.reason, c.message),
      });
  for (const t of i.taints)
    if (t.key.startsWith('nvidia.com/') && !ROUTINE_TAINTS.has(t.key))
      out.push({
        source: 'nvsentinel',
        text: `NVSentinel quarantine taint ${taintText(t)}`,
        xids: xidsIn(t.key),
      });
  if (i.quarantine) {
    const q = i.quarantine;
    const what = [q.checkName, q.message].filter((x) => x !== null).join(': ');
    out.push({
      source: 'nvsentinel',
      text: `NVSentinel fault quarantine ${i.unschedulable ? 'cordoned the node' : 'holds the node'}${what ? ` (${what})` : ''}`,
      xids: xidsIn(q.checkName, q.message),
    });
  }
  return out;
}

function problemDetector(i: WhyInput): WhyLine[] {
  return i.conditions
    .filter(
      (c) => c.status === 'True' && c.type !== EKS && !NVSENTINEL.test(c.type) && GPU_WORDS.test(c.type),
    )
    .map((c) => ({
      source: 'node-problem-detector',
      text: `Node Problem Detector: ${said(c)}`,
      xids: xidsIn(c.type, c.reason, c.message),
    }));
}

function eksAgent(i: WhyInput): WhyLine[] {
  const c = i.conditions.find((x) => x.type === EKS);
  if (!c || c.status === 'True') return [];
  return [
    {
      source: 'eks-node-monitoring',
      text: `EKS node monitoring agent: ${said(c)}`,
      xids: xidsIn(c.reason, c.message),
    },
  ];
}

function cordon(i: WhyInput, quarantined: boolean): WhyLine[] {
  if (!i.unschedulable || quarantined) return [];
  const why = i.taints
    .filter((t) => !ROUTINE_TAINTS.has(t.key) && t.effect !== 'PreferNoSchedule')
    .map(taintText);
  return [
    {
      source: 'cordon',
      text:
        why.length > 0
          ? `Cordoned, with ${why.join(', ')}`
          : 'Cordoned (Kubernetes keeps no reason for a cordon; ask who ran kubectl cordon)',
      xids: [],
    },
  ];
}

function devicePlugin(gpu: GpuNodeEntry | null): WhyLine[] {
  const cap = gpu?.capacity_gpus ?? null;
  const alloc = gpu?.allocatable_gpus ?? null;
  if (cap === null || alloc === null || alloc >= cap) return [];
  return [
    {
      source: 'device-plugin',
      text: `The device plugin withdrew ${cap - alloc} of ${cap} GPUs (allocatable ${alloc} < capacity ${cap}): it found them unhealthy`,
      xids: [],
    },
  ];
}

function labels(gpu: GpuNodeEntry | null): WhyLine[] {
  if (!gpu || gpu.product !== null) return [];
  const last = gpu.last_seen ?? null;
  const had = last?.product ? ` (last seen: ${last.product} ×${last.count ?? '?'})` : '';
  return [
    {
      source: 'labels',
      text: `GPU labels are gone${had}: GPU Feature Discovery no longer labels the node`,
      xids: [],
    },
  ];
}

function ready(i: WhyInput): WhyLine[] {
  const c = i.conditions.find((x) => x.type === 'Ready');
  if (c?.status === 'True') return [];
  const why = shortReason({
    status: c?.status ?? null,
    reason: c?.reason ?? null,
    message: c?.message ?? null,
  });
  return [{ source: 'ready', text: `Ready ${c?.status ?? 'Unknown'}: ${why}`, xids: [] }];
}

function events(i: WhyInput): WhyLine[] {
  const recent = i.events.filter((e) => {
    if (e.type !== 'Warning' || e.last === null) return false;
    const at = Date.parse(e.last);
    return i.now - at <= EVENTS_WINDOW_MS && at <= i.now + 60_000;
  });
  const shown = recent.slice(0, EVENTS_SHOWN).map((e) => {
    const min = Math.max(0, Math.round((i.now - Date.parse(e.last ?? '')) / 60_000));
    return {
      source: 'events' as const,
      text: `Warning ${e.reason}${e.count > 1 ? ` ×${e.count}` : ''} ${min} min ago: ${e.message}`,
      xids: xidsIn(e.reason, e.message),
    };
  });
  const last = shown.at(-1);
  if (last) last.text += ' (Kubernetes keeps events for about an hour; older ones are gone)';
  return shown;
}

/** Every reason, in rank order; within a rank in the order the node lists them. */
export function gpuWhy(i: WhyInput): WhyLine[] {
  const sentinel = nvsentinel(i);
  return [
    ...sentinel,
    ...problemDetector(i),
    ...eksAgent(i),
    ...cordon(i, i.quarantine !== null),
    ...devicePlugin(i.gpu),
    ...labels(i.gpu),
    ...ready(i),
    ...events(i),
  ];
}

/** A condition as the inventory keeps it for the cause (node-facts.ts: only those that signal a fault). */
export interface HealthCondition {
  type: string;
  status: string;
  reason: string | null;
  message: string | null;
}

/** Whether a node condition is a GPU health signal of another tool that says something is wrong. */
export function signalsFault(c: Pick<HealthCondition, 'type' | 'status'>): boolean {
  if (c.type === EKS) return c.status !== 'True';
  return c.status === 'True' && (NVSENTINEL.test(c.type) || GPU_WORDS.test(c.type));
}

const THIRD_PARTY: ReadonlySet<WhyLine['source']> = new Set([
  'nvsentinel',
  'node-problem-detector',
  'eks-node-monitoring',
]);
export const CAUSE_MAX = 200;

/**
 * The real cause an alert names first: the top line of `gpuWhy` when another tool's GPU health signal
 * made it (NVSentinel, Node Problem Detector, the EKS agent), in the tool's own words; null otherwise,
 * and the alert says what the Ready condition says. One line, at most CAUSE_MAX characters.
 */
export function gpuCause(i: {
  conditions: readonly HealthCondition[];
  taints: readonly NodeTaintView[];
  unschedulable: boolean;
}): string | null {
  const conditions = i.conditions.map((c) => ({ ...c, since: null, heartbeat: null, problem: true }));
  const top = gpuWhy({ ...i, conditions, quarantine: null, gpu: null, events: [], now: 0 })[0];
  return top && THIRD_PARTY.has(top.source) ? clusterText(top.text, CAUSE_MAX) : null;
}
