/**
 * The facts of every alert, their English words (common/i18n/alert-text.ts with 'en': what the CLI
 * prints and the settings file logs), and the deterministic alert id. The window and notifications word
 * the same facts (`words`) in the user's language.
 */
import type { AlertKind, AlertProduct, AlertWords } from '../../common/alerts.ts';
import { clusterText } from '../../common/cluster-text.ts';
import { type AlertInput, alertText, duration as localDuration } from '../../common/i18n/alert-text.ts';
import { translator } from '../../common/i18n/translator.ts';
import { reasonWords, type ShortReason } from '../../common/node-reason.ts';
import type { PolicyAlert } from './types.ts';

const EN = translator('en');

/** "45 s", "3 min", "1 h 5 min": the English durations of alert texts (the CLI's). */
export function duration(ms: number): string {
  return localDuration(ms, EN);
}

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
  words?: AlertWords;
  /** What keeps the ids of alerts of one kind at one instant apart (a product), when several can be. */
  about?: string;
}

export function makeAlert(f: AlertFacts, suppressed: boolean): PolicyAlert {
  const at = new Date(f.at).toISOString();
  const alert: PolicyAlert = {
    id: f.about === undefined ? `${f.context}:${f.kind}:${at}` : `${f.context}:${f.kind}:${f.about}:${at}`,
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
  if (f.words) alert.words = f.words;
  if (suppressed) alert.suppressed = true;
  return alert;
}

/**
 * A node of a drop and why it is down (`why`: the facts of the English `reason`, for other languages);
 * `left` marks a node that is gone (its reason is LEFT_THE_CLUSTER).
 */
export interface DownNode {
  node: string;
  reason: string;
  why?: ShortReason;
  /** The real cause (common/gpu-why.ts `gpuCause`), said before the reason. */
  cause?: string;
  left?: boolean;
}

/** A node still in the cluster that is not Ready, in English and as facts. */
export function downNode(node: string, why: ShortReason | null, cause: string | null = null): DownNode {
  const d: DownNode =
    why === null ? { node, reason: 'not Ready' } : { node, reason: reasonWords(why, EN), why };
  return cause === null ? d : { ...d, cause };
}

export const LEFT_THE_CLUSTER = 'left the cluster';

type Facts = Pick<AlertInput, 'nodes' | 'before' | 'after' | 'reasons'>;

/** The English title/body/short of the facts, and the facts' `words` for the other languages. */
export function englishWords(context: string, facts: Facts, words: AlertWords) {
  return { ...alertText({ context, ...facts, words }, EN), words };
}

/**
 * A ready drop: the title counts, the body (the alert log) names every node with its reason, and the
 * short text (the notification) names as many as fit in NOTIFICATION_BODY_MAX.
 */
export function dropText(context: string, down: readonly DownNode[], before: number, after: number) {
  const left = down.filter((d) => d.left).map((d) => d.node);
  const nodes = down.map((d) => d.node);
  const why = down.map((d) => (d.left ? null : (d.why ?? null)));
  const cause = down.map((d) => (d.left ? null : (d.cause ?? null)));
  const words: AlertWords = { kind: 'ready-drop', left };
  if (why.some((w) => w !== null)) words.why = why;
  if (cause.some((c) => c !== null)) words.cause = cause;
  // The reasons stay the Ready words; the cause is in `words`, and every text puts it first.
  const reasons = down.map((d) => ({ node: d.node, reason: d.left ? LEFT_THE_CLUSTER : d.reason }));
  const text = englishWords(context, { nodes, before, after, reasons }, words);
  return { ...text, short: text.short ?? text.body, reasons };
}

export function recoveryText(context: string, back: string[], before: number, after: number) {
  return englishWords(context, { nodes: back, before, after }, { kind: 'recovered' });
}

export function unreachableText(context: string, forMs: number, last: number | null, total: number | null) {
  return englishWords(
    context,
    { nodes: [], before: last, after: null },
    { kind: 'unreachable', forMs, total },
  );
}

export function reachableText(context: string, afterMs: number, ready: number | null) {
  return englishWords(context, { nodes: [], before: null, after: ready }, { kind: 'reachable', afterMs });
}

export function flapText(context: string, nodes: string[], threshold: number, windowMs: number) {
  return englishWords(
    context,
    { nodes, before: null, after: null },
    { kind: 'flapping', threshold, windowMs },
  );
}

export function withdrawnText(
  context: string,
  lines: { node: string; allocatable: number; capacity: number }[],
) {
  const words: AlertWords = {
    kind: 'gpus-withdrawn',
    lines: lines.map((l) => ({ node: l.node, allocatable: l.allocatable, capacity: l.capacity })),
  };
  return englishWords(context, { nodes: lines.map((l) => l.node), before: null, after: null }, words);
}

export function noFreeText(
  context: string,
  w: { product: string; allocatable: number; pending: number; forMs: number; item?: AlertProduct },
) {
  return englishWords(context, { nodes: [], before: null, after: 0 }, { kind: 'no-free-gpu', ...w });
}

export function freeBackText(
  context: string,
  product: string,
  free: number,
  afterMs: number,
  item?: AlertProduct,
) {
  return englishWords(
    context,
    { nodes: [], before: 0, after: free },
    { kind: 'free-gpu-back', product, afterMs, ...(item === undefined ? {} : { item }) },
  );
}
