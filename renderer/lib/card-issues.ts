/**
 * What the overview card says is wrong with a context, without a click: the not-ready GPU nodes
 * (name, short reason, how long) and the GPU problems of ready and not-ready nodes alike. Pure.
 */
import type { Translator } from '../../common/i18n/translator.ts';
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import { entryReason } from '../../common/node-reason.ts';
import { ageSince, lastSeenText } from './format.ts';

/** How many lines of each list a card shows before "+N more". */
export const CARD_LIMIT = 5;

export interface DownNodeLine {
  name: string;
  /** "kubelet stopped posting node status", "NotReady (PLEG is not healthy)" (common/node-reason.ts). */
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

/** Stale GFD labels: the node lost its product label but was seen with GPUs before. */
function staleLabels(node: GpuNodeEntry, tr: Translator): string | null {
  if (node.product !== null || !node.last_seen) return null;
  return tr.t('card.labelsGone', { lastSeen: lastSeenText(node, tr) ?? '' });
}

export function cardIssues(inv: GpuInventoryStatus | null, now: number, tr: Translator): CardIssues {
  const nodes = inv?.nodes ?? [];
  const down: DownNodeLine[] = [];
  let downCount = 0;
  const problems: GpuProblemLine[] = [];
  let problemCount = 0;
  for (const node of nodes) {
    if (!node.ready) {
      downCount++;
      if (down.length < CARD_LIMIT)
        down.push({
          name: node.name,
          reason: entryReason(node, tr),
          age: ageSince(node.not_ready_since, now, tr),
        });
    }
    // No copies per node: a 5,000-node context runs this on every snapshot.
    const stale = staleLabels(node, tr);
    for (const text of node.problems ?? []) {
      problemCount++;
      if (problems.length < CARD_LIMIT) problems.push({ name: node.name, text });
    }
    if (stale) {
      problemCount++;
      if (problems.length < CARD_LIMIT) problems.push({ name: node.name, text: stale });
    }
  }
  return {
    down,
    moreDown: downCount - down.length,
    problems,
    moreProblems: problemCount - problems.length,
  };
}
