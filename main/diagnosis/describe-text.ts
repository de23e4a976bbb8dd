/**
 * `gpu-fleet describe NODE` as text, in the manner of `kubectl describe node`: the node's state and why,
 * its conditions, taints, system info, GPU facts, the GPU pods on it and its recent events. Pure: the
 * cluster's text in the detail is already sanitized (clusterText) when it arrives; the context's name is
 * the kubeconfig's, as written, so it passes the gate here. `now` (epoch ms) gives the ages.
 */
import { clusterText } from '../../common/cluster-text.ts';
import type { NodeDetail } from '../../common/node-detail.ts';
import { shortReason } from '../../common/node-reason.ts';
import { alignColumns } from '../inventory/text-table.ts';

const NONE = '<none>';

/** kubectl's short ages: 45s, 12m, 3h, 5d (unknown: <unknown>). */
export function shortAge(iso: string | null, now: number): string {
  if (iso === null) return '<unknown>';
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return '<unknown>';
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172_800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

const field = (label: string, value: string) => `${`${label}:`.padEnd(20)}${value}`;
const indent = (lines: string[]) => lines.map((l) => `  ${l}`);

function gpuLines(d: NodeDetail, now: number): string[] {
  const g = d.gpu;
  if (g === null) return ['  <not a GPU node>'];
  const seen = g.last_seen ? ` (last seen: ${g.last_seen.product ?? 'GPU'} ×${g.last_seen.count})` : '';
  const f = d.gpuFacts;
  const lines = [
    field('Product', `${g.product ?? '<unlabeled>'}${g.product === null ? seen : ''}`),
    field('Count', String(g.count)),
    field('Memory', g.memory === null ? NONE : `${g.memory} MiB`),
    field('Workload', g.workload ?? NONE),
    field('Family', f.family ?? NONE),
    field('Driver', f.driver ?? NONE),
    field('CUDA', f.cuda ?? NONE),
  ];
  if (g.mig) {
    const profiles = g.mig.profiles.map((p) => `${p.profile}×${p.count}`).join(', ');
    lines.push(field('MIG', [g.mig.strategy ?? 'mig', profiles].filter(Boolean).join(' ')));
  }
  if (f.migConfig !== null || f.migState !== null)
    lines.push(field('MIG config', `${f.migConfig ?? NONE} (${f.migState ?? 'state unknown'})`));
  if (g.sharing)
    lines.push(
      field(
        'Sharing',
        `${g.sharing.strategy ?? 'shared'}${g.sharing.replicas === null ? '' : ` ×${g.sharing.replicas}`}`,
      ),
    );
  if (f.gfdAgeSeconds !== null)
    lines.push(field('GFD labels age', shortAge(new Date(now - f.gfdAgeSeconds * 1000).toISOString(), now)));
  const out = indent(lines);
  if (g.resources && g.resources.length > 0) {
    out.push('  Resources:');
    out.push(
      ...indent(
        indent(
          alignColumns([
            ['Resource', 'Capacity', 'Allocatable'],
            ...g.resources.map((r) => [r.name, String(r.capacity), String(r.allocatable)]),
          ]),
        ),
      ),
    );
  }
  if (g.problems && g.problems.length > 0) {
    out.push('  Problems:');
    for (const p of g.problems) out.push(`    ${p}`);
  }
  return out;
}

export function formatDescribe(d: NodeDetail, now: number): string {
  const ready = d.conditions.find((c) => c.type === 'Ready');
  const why = shortReason({
    status: ready?.status ?? null,
    reason: ready?.reason ?? null,
    message: ready?.message ?? null,
  });
  const lines = [
    field('Name', clusterText(d.name, 253)),
    field('Context', clusterText(d.context, 253)),
    field(
      'Ready',
      ready === undefined ? `Unknown — ${why}` : why === '' ? 'True' : `${ready.status} — ${why}`,
    ),
  ];
  if (ready !== undefined && ready.status !== 'True')
    lines.push(field('Not ready for', shortAge(ready.since, now)));
  // The GPU health signals of other tools first: they name the fault where Ready only says NotReady.
  if (d.why.length > 0)
    lines.push('Why (most telling first):', ...d.why.map((w) => `  - ${clusterText(w.text, 600)}`));
  const taints = d.taints.map((t) => `${t.key}${t.value === null ? '' : `=${t.value}`}:${t.effect}`);
  lines.push(field('Taints', taints[0] ?? NONE), ...taints.slice(1).map((t) => `${''.padEnd(20)}${t}`));
  lines.push(field('Unschedulable', String(d.unschedulable)));
  lines.push('Conditions:');
  if (d.conditions.length === 0) lines.push('  <none>');
  else
    lines.push(
      ...indent(
        alignColumns([
          ['Type', 'Status', 'Problem', 'LastHeartbeat', 'LastTransition', 'Reason', 'Message'],
          ['----', '------', '-------', '-------------', '--------------', '------', '-------'],
          ...d.conditions.map((c) => [
            c.type,
            c.status,
            c.problem ? 'yes' : 'no',
            c.heartbeat === null ? NONE : `${shortAge(c.heartbeat, now)} ago`,
            c.since === null ? NONE : `${shortAge(c.since, now)} ago`,
            c.reason ?? NONE,
            c.message ?? NONE,
          ]),
        ]),
      ),
    );
  const s = d.system;
  lines.push(
    'System Info:',
    ...indent([
      field('Kernel Version', s.kernelVersion ?? NONE),
      field('OS Image', s.osImage ?? NONE),
      field('Container Runtime', s.containerRuntime ?? NONE),
      field('Kubelet Version', s.kubeletVersion ?? NONE),
      field('Architecture', s.architecture ?? NONE),
    ]),
    'GPU:',
    ...gpuLines(d, now),
    'GPU Pods:',
  );
  if (d.pods.length === 0) lines.push('  <none>');
  else
    lines.push(
      ...indent(
        alignColumns([
          ['Namespace', 'Name', 'Phase', 'GPUs'],
          ['---------', '----', '-----', '----'],
          ...d.pods.map((p) => [p.namespace, p.name, p.phase, String(p.gpus)]),
        ]),
      ),
    );
  lines.push(...telemetryLines(d));
  lines.push('Events:');
  if (d.events.length === 0) lines.push('  <none>');
  else
    lines.push(
      ...indent(
        alignColumns([
          ['Type', 'Reason', 'Age', 'From', 'Message'],
          ['----', '------', '----', '----', '-------'],
          ...d.events.map((e) => [
            e.type,
            e.reason || NONE,
            `${shortAge(e.last, now)}${e.count > 1 ? ` (x${e.count})` : ''}`,
            e.source ?? NONE,
            e.message,
          ]),
        ]),
      ),
    );
  for (const p of d.partial) lines.push(`Not shown: ${p}`);
  return lines.join('\n');
}

/** "GPU Telemetry:" with one row per GPU, or the one sentence why there is none. */
function telemetryLines(d: NodeDetail): string[] {
  const t = d.telemetry;
  if (t === null) return [];
  if (t.state === 'unavailable') return ['GPU Telemetry:', `  ${t.message}`];
  const n = (v: number | null, unit: string) => (v === null ? NONE : `${Math.round(v * 10) / 10}${unit}`);
  return [
    'GPU Telemetry:',
    ...indent(
      alignColumns([
        ['GPU', 'Model', 'Util', 'Temp', 'Power', 'Memory', 'XID'],
        ['---', '-----', '----', '----', '-----', '------', '---'],
        ...t.gpus.map((g) => [
          String(g.index),
          g.model ?? NONE,
          n(g.utilPercent, '%'),
          n(g.temperatureC, ' C'),
          n(g.powerW, ' W'),
          g.memoryUsedMiB === null || g.memoryTotalMiB === null
            ? NONE
            : `${g.memoryUsedMiB}/${g.memoryTotalMiB} MiB`,
          g.xid === null ? NONE : `${g.xid}${g.xidMeaning ? ` (${g.xidMeaning})` : ''}`,
        ]),
      ]),
    ),
  ];
}
