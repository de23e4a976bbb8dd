/** The words of every alert: titles and bodies in plain language, and the deterministic alert id. */
import { type AlertKind, NOTIFICATION_BODY_MAX } from '../../common/alerts.ts';
import { clusterText } from '../../common/cluster-text.ts';
import type { PolicyAlert } from './types.ts';

export function duration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.round((ms % 3_600_000) / 60_000);
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
export const list = (names: readonly string[]) => names.join(', ');

export interface AlertFacts {
  at: number;
  context: string;
  kind: AlertKind;
  nodes: string[];
  before: number | null;
  after: number | null;
  title: string;
  body: string;
  reasons?: { node: string; reason: string }[];
  short?: string;
}

export function makeAlert(f: AlertFacts, suppressed: boolean): PolicyAlert {
  const at = new Date(f.at).toISOString();
  const alert: PolicyAlert = {
    id: `${f.context}:${f.kind}:${at}`,
    at,
    context: f.context,
    kind: f.kind,
    // Titles carry the kubeconfig's context name: one clean line before it reaches a notification.
    title: clusterText(f.title, 200),
    body: f.body,
    nodes: f.nodes,
    before: f.before,
    after: f.after,
  };
  if (f.reasons) alert.reasons = f.reasons;
  if (f.short !== undefined && f.short !== f.body) alert.short = f.short;
  if (suppressed) alert.suppressed = true;
  return alert;
}

/** A node of a drop and why it is down ("left the cluster" for a node that is gone). */
export interface DownNode {
  node: string;
  reason: string;
}

export const LEFT_THE_CLUSTER = 'left the cluster';

/** "omen: kubelet stopped posting node status; nuc2: NotReady (PLEG is not healthy)", all of them. */
function reasonList(down: readonly DownNode[]): string {
  return down.map((d) => `${d.node}: ${d.reason}`).join('; ');
}

/**
 * The same list cut to fit `max` characters with "+N more" (at least the first node is named). The longest
 * prefix that fits is grown from the front: the text only gets longer with each node named, and a drop of
 * thousands of nodes must not rebuild the whole list once per node.
 */
function fittedReasonList(down: readonly DownNode[], max: number): string {
  const all = reasonList(down);
  if (all.length <= max) return all;
  let fitted: string | null = null;
  let text = '';
  for (let n = 1; n < down.length; n++) {
    const d = down[n - 1] as DownNode;
    text = n === 1 ? `${d.node}: ${d.reason}` : `${text}; ${d.node}: ${d.reason}`;
    const candidate = `${text}; +${down.length - n} more`;
    if (candidate.length > max) break;
    if (n > 1) fitted = candidate;
  }
  if (fitted !== null) return fitted;
  const more = down.length > 1 ? `; +${down.length - 1} more` : '';
  return `${clusterText(reasonList(down.slice(0, 1)), Math.max(20, max - more.length))}${more}`;
}

/**
 * A ready drop: the title counts, the body (the alert log) names every node with its reason, and the
 * short text (the notification) names as many as fit in NOTIFICATION_BODY_MAX.
 */
export function dropText(context: string, down: readonly DownNode[], before: number, after: number) {
  const tail = ` Ready GPU nodes ${before} → ${after}.`;
  return {
    title: `${context}: ${plural(down.length, 'GPU node', 'GPU nodes')} down`,
    body: `${reasonList(down)}.${tail}`,
    short: `${fittedReasonList(down, NOTIFICATION_BODY_MAX - tail.length - 1)}.${tail}`,
    reasons: down.map((d) => ({ node: d.node, reason: d.reason })),
  };
}

export function recoveryText(context: string, back: string[], before: number, after: number) {
  const who = back.length === 0 ? '' : `${list(back)} ${back.length === 1 ? 'is' : 'are'} Ready again. `;
  return { title: `${context}: GPU nodes back`, body: `${who}Ready GPU nodes ${before} → ${after}.` };
}

export function unreachableText(context: string, forMs: number, last: number | null, total: number | null) {
  const known =
    last === null ? 'No inventory was known yet.' : `Last known: ${last} of ${total} GPU nodes Ready.`;
  return {
    title: `${context}: cluster unreachable`,
    body: `No answer from ${context} for ${duration(forMs)}. ${known}`,
  };
}

export function reachableText(context: string, afterMs: number, ready: number | null) {
  const now = ready === null ? '' : ` Ready GPU nodes ${ready}.`;
  return {
    title: `${context}: reachable again`,
    body: `${context} answers again after ${duration(afterMs)} unreachable.${now}`,
  };
}

export function flapText(context: string, nodes: string[], threshold: number, windowMs: number) {
  const verb = nodes.length === 1 ? 'is' : 'are';
  return {
    title: `${context}: ${list(nodes)} ${verb} flapping`,
    body:
      `${list(nodes)} changed readiness more than ${plural(threshold, 'time', 'times')} in ${duration(windowMs)}. ` +
      `No more alerts for ${nodes.length === 1 ? 'it' : 'them'} until stable for ${duration(windowMs)}.`,
  };
}

export function withdrawnText(
  context: string,
  lines: { node: string; allocatable: number; capacity: number }[],
) {
  const parts = lines.map(
    (l) => `${l.node} offers ${l.allocatable} of its ${plural(l.capacity, 'GPU', 'GPUs')}.`,
  );
  return {
    title: `${context}: GPUs withdrawn on ${list(lines.map((l) => l.node))}`,
    body: `${parts.join(' ')} The device plugin withdrew the rest (failed or unhealthy GPUs).`,
  };
}
