/** The words of every alert: titles and bodies in plain language, and the deterministic alert id. */
import type { AlertKind } from '../../common/alerts.ts';
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
}

export function makeAlert(f: AlertFacts, suppressed: boolean): PolicyAlert {
  const at = new Date(f.at).toISOString();
  const alert: PolicyAlert = {
    id: `${f.context}:${f.kind}:${at}`,
    at,
    context: f.context,
    kind: f.kind,
    title: f.title,
    body: f.body,
    nodes: f.nodes,
    before: f.before,
    after: f.after,
  };
  if (suppressed) alert.suppressed = true;
  return alert;
}

export function dropText(context: string, notReady: string[], gone: string[], before: number, after: number) {
  const parts: string[] = [];
  if (notReady.length > 0) parts.push(`${list(notReady)} went NotReady.`);
  if (gone.length > 0) parts.push(`${list(gone)} left the cluster.`);
  const n = notReady.length + gone.length;
  return {
    title: `${context}: ${plural(n, 'GPU node', 'GPU nodes')} down`,
    body: `${parts.join(' ')} Ready GPU nodes ${before} → ${after}.`,
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
