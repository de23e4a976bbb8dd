/**
 * `gpu-fleet free` as tables, kubectl-style: one row per context and product (free, allocatable, in use,
 * capacity, nodes), or with -o wide one row per node and GPU resource (and whether the node can take a
 * pod now); a context whose free GPUs are unknown says why on its row, never 0. The Pending GPU pods
 * follow, with the scheduler's reason.
 */
import { SENTENCE_MAX } from '../../../common/cluster-text.ts';
import type { ClusterFree, NodeFree } from '../../../common/free-gpus.ts';
import { alignColumns } from '../../inventory/text-table.ts';
import { taintText } from '../../inventory/tolerations.ts';
import { shownText } from '../../log/redact.ts';
import type { FreeRead } from './free-read.ts';

export function formatFree(reads: readonly FreeRead[], wide: boolean): string {
  const rows: string[][] = wide
    ? [['CONTEXT', 'NODE', 'PRODUCT', 'RESOURCE', 'FREE', 'ALLOCATABLE', 'IN USE', 'STATUS']]
    : [['CONTEXT', 'PRODUCT', 'FREE', 'ALLOCATABLE', 'IN USE', 'CAPACITY', 'NODES']];
  // A context without figures says why on a line of its own, after the table (its sentence would widen a column).
  const notes: string[] = [];
  for (const r of reads) {
    if (r.error !== null) notes.push(`${r.context}: error: ${r.error}`);
    else if (r.free.state === 'unknown') notes.push(`${r.context}: ${r.free.message ?? 'free GPUs unknown'}`);
    else if (r.free.nodes.length === 0) notes.push(`${r.context}: no GPU resources`);
    else if (wide) rows.push(...nodeRows(r.context, r.free));
    else
      for (const p of r.free.products)
        rows.push([r.context, p.label, n(p.free), n(p.allocatable), n(p.in_use), n(p.capacity), n(p.nodes)]);
  }
  const out = rows.length > 1 ? alignColumns(rows) : [];
  out.push(...notes.map((line) => shownText(line, SENTENCE_MAX)));
  const pending = reads.flatMap((r) =>
    r.free?.state === 'known' ? r.free.pending.pods.map((p) => ({ context: r.context, pod: p })) : [],
  );
  if (pending.length > 0) {
    const total = reads.reduce((s, r) => s + (r.free?.state === 'known' ? r.free.pending.count : 0), 0);
    out.push('', `PENDING GPU PODS: ${total}`);
    // -o wide adds what a pod tolerates, where the scheduler's reason names an untolerated taint.
    out.push(
      ...alignColumns([
        ['CONTEXT', 'POD', 'REQUESTS', ...(wide ? ['TOLERATIONS'] : []), 'REASON'],
        ...pending.map(({ context, pod }) => [
          context,
          `${pod.namespace}/${pod.name}`,
          Object.entries(pod.requests)
            .map(([k, v]) => `${k}=${v}`)
            .join(','),
          ...(wide ? [tolerationsCell(pod.tolerations)] : []),
          [pod.reason, pod.message].filter((x) => x !== null).join(': ') || '-',
        ]),
      ]),
    );
  }
  return `${out.join('\n')}\n`;
}

function nodeRows(context: string, free: ClusterFree): string[][] {
  return free.nodes.flatMap((node) =>
    node.slots.map((s) => [
      context,
      node.name,
      node.product ?? '<unlabeled>',
      s.resource,
      s.overcommitted ? `${s.free} (overcommitted)` : n(s.free),
      n(s.allocatable),
      n(s.requested),
      status(node),
    ]),
  );
}

function status(node: NodeFree): string {
  const parts = [node.ready ? 'Ready' : 'NotReady'];
  if (node.cordoned) parts.push('SchedulingDisabled');
  if (node.taints.length > 0) parts.push(node.taints.map(taintText).join(','));
  return parts.join(',');
}

const n = (v: number) => String(v);

/** `-` where tolerations do not explain the reason; `<none>` (kubectl's word) for a pod that tolerates nothing. */
function tolerationsCell(tolerations: readonly string[] | undefined): string {
  if (tolerations === undefined) return '-';
  return tolerations.length === 0 ? '<none>' : tolerations.join(',');
}
