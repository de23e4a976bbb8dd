/**
 * What the overview card says is wrong with a context, without a click: the not-ready GPU nodes
 * (name, short reason, how long) and the GPU problems of ready and not-ready nodes alike. Pure.
 */
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import { ageSince, lastSeenText } from './format.ts';

/** How many lines of each list a card shows before "+N more". */
export const CARD_LIMIT = 5;

export interface DownNodeLine {
  name: string;
  /** "kubelet stopped posting status", or the condition's reason as the API said it. */
  reason: string;
  /** "3 h", or null when the transition time is unknown. */
  age: string | null;
}

export interface GpuProblemLine {
  name: string;
  text: string;
}

export interface CardIssues {
  down: DownNodeLine[];
  moreDown: number;
  problems: GpuProblemLine[];
  moreProblems: number;
}

/** The Ready condition reasons a kubelet or the node controller sets, in words. */
const REASON_WORDS: ReadonlyMap<string, string> = new Map([
  ['NodeStatusUnknown', 'kubelet stopped posting status'],
  ['NodeStatusNeverUpdated', 'kubelet never posted status'],
  ['KubeletNotReady', 'kubelet not ready'],
  ['KubeletStopped', 'kubelet stopped'],
]);

/** A short phrase for a Ready condition's reason; unknown reasons are shown as they came. */
export function reasonWords(node: GpuNodeEntry): string {
  const reason = node.not_ready_reason;
  if (reason) return REASON_WORDS.get(reason) ?? reason;
  return node.readiness === 'Unknown' ? 'status unknown' : 'not ready';
}

/** Stale GFD labels: the node lost its product label but was seen with GPUs before. */
function staleLabels(node: GpuNodeEntry): string | null {
  if (node.product !== null || !node.last_seen) return null;
  return `GPU labels gone (${lastSeenText(node)})`;
}

export function cardIssues(inv: GpuInventoryStatus | null, now: number): CardIssues {
  const nodes = inv?.nodes ?? [];
  const down: DownNodeLine[] = [];
  let downCount = 0;
  const problems: GpuProblemLine[] = [];
  let problemCount = 0;
  for (const node of nodes) {
    if (!node.ready) {
      downCount++;
      if (down.length < CARD_LIMIT)
        down.push({ name: node.name, reason: reasonWords(node), age: ageSince(node.not_ready_since, now) });
    }
    const texts = [...(node.problems ?? [])];
    const stale = staleLabels(node);
    if (stale) texts.push(stale);
    for (const text of texts) {
      problemCount++;
      if (problems.length < CARD_LIMIT) problems.push({ name: node.name, text });
    }
  }
  return {
    down,
    moreDown: downCount - down.length,
    problems,
    moreProblems: problemCount - problems.length,
  };
}
