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
 */
import { clusterText } from './cluster-text.ts';
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

/** "" for a Ready node; otherwise a short phrase (never empty). */
export function shortReason(ready: ReadyFacts): string {
  if (ready.status === 'True') return '';
  const message = clusterText(ready.message);
  const reason = clusterText(ready.reason, SHORT_REASON_MAX);
  const clause = clusterText(firstClause(message), SHORT_REASON_MAX);
  if (ready.status === null) return 'no Ready condition reported';
  if (ready.status === 'Unknown') {
    if (reason === 'NodeStatusUnknown' || /^kubelet stopped posting/i.test(clause))
      return 'kubelet stopped posting node status';
    if (clause !== '') return clause.charAt(0).toLowerCase() + clause.slice(1);
    return reason === '' ? 'readiness unknown' : `readiness unknown (${reason})`;
  }
  // 'False', or a status the API does not define: the kubelet said why.
  const what = ready.status === 'False' ? 'NotReady' : `Ready=${clusterText(ready.status, 20)}`;
  if (clause !== '') return `${what} (${clause})`;
  if (reason !== '') return `${what} (${reason})`;
  return what;
}

/**
 * shortReason() of an inventory entry: the card, the tray, the alerts and `scan -o wide` all call this.
 * An entry without `readiness` (an inventory saved before the field existed) reads as Unknown.
 */
export function entryReason(
  n: Pick<GpuNodeEntry, 'readiness' | 'not_ready_reason' | 'not_ready_message'>,
): string {
  return shortReason({
    status: n.readiness ?? 'Unknown',
    reason: n.not_ready_reason ?? null,
    message: n.not_ready_message ?? null,
  });
}
