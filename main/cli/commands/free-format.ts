/**
 * `gpu-fleet free` as tables, kubectl-style: one row per context and product (free, allocatable, in use,
 * capacity, nodes), or with -o wide one row per node and GPU resource (and whether the node can take a
 * pod now); a context whose free GPUs are unknown says why on its row, never 0. The Pending GPU pods
 * follow, with the scheduler's reason.
 */
import { SENTENCE_MAX } from '../../../common/cluster-text.ts';
import type { NodeFree, ProductFree } from '../../../common/free-gpus.ts';
import { replicasText } from '../../../common/free-product-text.ts';
import { translator } from '../../../common/i18n/translator.ts';
import { isUsable } from '../../inventory/free-gpus.ts';
import { alignColumns } from '../../inventory/text-table.ts';
import { taintText } from '../../inventory/tolerations.ts';
import { shownText } from '../../log/redact.ts';
import type { FreeRead } from './free-read.ts';

const ENGLISH = translator('en');

export function formatFree(reads: readonly (FreeRead & { also?: string[] })[], wide: boolean): string {
  const rows: string[][] = wide
    ? [['CONTEXT', 'NODE', 'PRODUCT', 'RESOURCE', 'FREE', 'ALLOCATABLE', 'IN USE', 'STATUS']]
    : [['CONTEXT', 'PRODUCT', 'FREE', 'ALLOCATABLE', 'IN USE', 'CAPACITY', 'NODES']];
  // A context without figures says why on a line of its own, after the table (its sentence would widen a
  // column). An error is said once, on stderr (free.ts).
  const notes: string[] = [];
  const aside: string[] = [];
  for (const r of reads) {
    if (r.also !== undefined && r.also.length > 0)
      notes.push(`${r.context}: the same cluster as ${r.also.join(', ')} (counted once)`);
    if (r.error !== null) continue;
    if (r.free.state === 'unknown') notes.push(`${r.context}: ${r.free.message ?? 'free GPUs unknown'}`);
    else if (r.free.nodes.length === 0) {
      notes.push(`${r.context}: no GPU resources`);
      continue;
    }
    if (wide) rows.push(...nodeRows(r.context, r.free.state === 'known', r.nodes));
    else
      for (const p of r.free.products)
        rows.push([
          r.context,
          productCell(p),
          unknownOr(p.free),
          n(p.allocatable),
          unknownOr(p.in_use),
          n(p.capacity),
          n(p.nodes),
        ]);
    if (r.free.state === 'known') {
      aside.push(...leftOut(r.context, r.nodes));
      if (r.free.overcommitted.length > 0)
        notes.push(
          `${r.context}: pods request more than allocatable on ${r.free.overcommitted.join(', ')} (overcommitted)`,
        );
    }
  }
  const out = rows.length > 1 ? alignColumns(rows) : [];
  out.push(...notes.map((line) => shownText(line, SENTENCE_MAX)));
  if (aside.length > 0)
    out.push(
      shownText(
        `NOTE: FREE counts only nodes that can take a pod now; left out (cordoned or NotReady): ${aside.join(', ')}`,
        SENTENCE_MAX,
      ),
    );
  const pending = reads.flatMap((r) =>
    r.free?.state === 'known'
      ? (r.free.pending?.pods ?? []).map((p) => ({ context: r.context, pod: p }))
      : [],
  );
  if (pending.length > 0) {
    const total = reads.reduce(
      (s, r) => s + (r.free?.state === 'known' ? (r.free.pending?.count ?? 0) : 0),
      0,
    );
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

function nodeRows(context: string, known: boolean, nodes: readonly NodeFree[]): string[][] {
  return nodes.flatMap((node) =>
    node.slots.map((s) => {
      const replicas = replicasText(s, ENGLISH);
      return [
        context,
        node.name,
        `${node.product ?? '<unlabeled>'}${replicas === null ? '' : ` (${replicas})`}`,
        s.resource,
        !known ? 'unknown' : s.overcommitted ? `${s.free} (overcommitted)` : n(s.free),
        n(s.allocatable),
        known ? n(s.requested) : 'unknown',
        status(node),
      ];
    }),
  );
}

/** The product as the table names it, with how many physical GPUs shared replicas share. */
function productCell(p: ProductFree): string {
  const replicas = replicasText(p, ENGLISH);
  return replicas === null ? p.label : `${p.label}: ${replicas}`;
}

/** Nodes with free slots that FREE leaves out (a pod cannot be placed there now), with their free. */
function leftOut(context: string, nodes: readonly NodeFree[]): string[] {
  return nodes
    .filter((node) => !isUsable(node))
    .flatMap((node) => {
      const free = node.slots.reduce((sum, s) => sum + s.free, 0);
      const why = node.cordoned ? 'cordoned' : 'NotReady';
      return free > 0 ? [`${context}/${node.name} ${free} (${why})`] : [];
    });
}

const unknownOr = (v: number | null) => (v === null ? 'unknown' : String(v));

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
