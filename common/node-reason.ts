/**
 * Why a node is not Ready, in a few words a person reads at a glance: the overview card, a notification,
 * the tray menu, the alert log and `scan -o wide` all word it with this one rule, from the Ready
 * condition's status, reason and message (already passed through `clusterText()` or not: it is applied
 * again here, so the result is always one clean line).
 *
 *   Unknown, "Kubelet stopped posting node status."            → "kubelet stopped posting node status"
 *   False, KubeletNotReady, "PLEG is not healthy: pleg was…"    → "NotReady (PLEG is not healthy)"
 *   False, KubeletNotReady, "container runtime network not ready: NetworkReady=false reason:…"
 *                                                               → "NotReady (container runtime network not ready)"
 *
 * The rule decides a `ShortReason` (our words as a code, the kubelet's clause kept as written); its
 * words come from the catalogs (`reason.*`): English for the CLI and the alert log, the user's language
 * in the window and the tray.
 */
import { clusterText } from './cluster-text.ts';
import { type Translator, translator } from './i18n/translator.ts';
import type { GpuNodeEntry } from './inventory.ts';

/** The longest short reason (characters); the first clause of a kubelet message fits in it. */
export const SHORT_REASON_MAX = 60;

export interface ReadyFacts {
  /** 'True' | 'False' | 'Unknown', or null when the node has no Ready condition. */
  status: string | null;
  reason: string | null;
  message: string | null;
}

/** The first clause of a message: up to the first ':' or ';' or sentence end, lower-cased first word kept. */
function firstClause(message: string): string {
  const cut = message.split(/[:;]|\.(?:\s|$)/)[0] ?? '';
  return cut.trim();
}

/** Why a node is not Ready: our words as a code, what the cluster said (`clause`, `reason`) as written. */
export type ShortReason =
  | { code: 'ready' }
  | { code: 'noCondition' }
  | { code: 'kubeletStopped' }
  /** Unknown, in the cluster's words (its first clause, first letter lower-cased). */
  | { code: 'clause'; clause: string }
  /** Unknown, with the condition's reason or '' when it gave none. */
  | { code: 'unknown'; reason: string }
  /** `status` is null for False (NotReady), otherwise a status the API does not define; `detail` may be ''. */
  | { code: 'notReady'; status: string | null; detail: string };

export function reasonOf(ready: ReadyFacts): ShortReason {
  if (ready.status === 'True') return { code: 'ready' };
  const message = clusterText(ready.message);
  const reason = clusterText(ready.reason, SHORT_REASON_MAX);
  const clause = clusterText(firstClause(message), SHORT_REASON_MAX);
  if (ready.status === null) return { code: 'noCondition' };
  if (ready.status === 'Unknown') {
    if (reason === 'NodeStatusUnknown' || /^kubelet stopped posting/i.test(clause))
      return { code: 'kubeletStopped' };
    if (clause !== '') return { code: 'clause', clause: clause.charAt(0).toLowerCase() + clause.slice(1) };
    return { code: 'unknown', reason };
  }
  // 'False', or a status the API does not define: the kubelet said why.
  return {
    code: 'notReady',
    status: ready.status === 'False' ? null : clusterText(ready.status, 20),
    detail: clause !== '' ? clause : reason,
  };
}

/** A ShortReason in a language: "" for a Ready node, otherwise a short phrase (never empty). */
export function reasonWords(r: ShortReason, tr: Translator): string {
  switch (r.code) {
    case 'ready':
      return '';
    case 'noCondition':
      return tr.t('reason.noCondition');
    case 'kubeletStopped':
      return tr.t('reason.kubeletStopped');
    case 'clause':
      return r.clause;
    case 'unknown':
      return r.reason === '' ? tr.t('reason.unknown') : tr.t('reason.unknownWhy', { reason: r.reason });
    case 'notReady': {
      const what = r.status === null ? tr.t('node.notReady') : tr.t('reason.status', { status: r.status });
      return r.detail === '' ? what : tr.t('reason.with', { what, detail: r.detail });
    }
  }
}

const EN = translator('en');

/** "" for a Ready node; otherwise a short phrase (never empty), in English unless `tr` says otherwise. */
export function shortReason(ready: ReadyFacts, tr: Translator = EN): string {
  return reasonWords(reasonOf(ready), tr);
}

/**
 * shortReason() of an inventory entry: the card, the tray, the alerts and `scan -o wide` all call this.
 * An entry without `readiness` (an inventory saved before the field existed) reads as Unknown.
 */
export function entryReason(n: ReadinessOf, tr: Translator = EN): string {
  return reasonWords(entryReasonOf(n), tr);
}

type ReadinessOf = Pick<GpuNodeEntry, 'readiness' | 'not_ready_reason' | 'not_ready_message'>;

/** The ShortReason of an inventory entry (entryReason's facts, for words made later in any language). */
export function entryReasonOf(n: ReadinessOf): ShortReason {
  return reasonOf({
    status: n.readiness ?? 'Unknown',
    reason: n.not_ready_reason ?? null,
    message: n.not_ready_message ?? null,
  });
}

/**
 * A node's readiness in Kubernetes' words, as the window's node table and the CLI's READY column show it:
 * Ready, NotReady, or Unknown when the kubelet stopped reporting (the same in every language).
 */
export type ReadyWord = 'Ready' | 'NotReady' | 'Unknown';

export function readyWord(n: Pick<GpuNodeEntry, 'ready' | 'readiness'>): ReadyWord {
  if (n.ready) return 'Ready';
  return n.readiness === 'Unknown' ? 'Unknown' : 'NotReady';
}
