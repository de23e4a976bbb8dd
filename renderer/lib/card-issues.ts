/**
 * What the overview card says is wrong with a context, without a click: the not-ready GPU nodes
 * (name, short reason, how long) and the GPU problems of ready and not-ready nodes alike. Pure.
 */
import { gpuProblemTexts } from '../../common/i18n/gpu-problem-text.ts';
import type { Translator } from '../../common/i18n/translator.ts';
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import { entryReason } from '../../common/node-reason.ts';
import type { TelemetrySummary } from '../../common/telemetry.ts';
import { ageSince, lastSeenText, telemetryModelText } from './format.ts';

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

/**
 * Stale GFD labels: the node lost its product label but was seen with GPUs before, or its DCGM exporter
 * still names the GPU (then the model it reports, marked as from telemetry).
 */
function staleLabels(node: GpuNodeEntry, tr: Translator, models: ReadonlyMap<string, string>): string | null {
  if (node.product !== null) return null;
  const model = models.get(node.name) ?? null;
  const seen = lastSeenText(node, tr);
  const lines: string[] = [];
  if (model !== null) lines.push(tr.t('card.labelsGoneModel', { model: telemetryModelText(model, tr) }));
  if (seen !== null) lines.push(model === null ? tr.t('card.labelsGone', { lastSeen: seen }) : seen);
  return lines.length === 0 ? null : lines.join(tr.t('node.problemsSeparator'));
}

/** `telemetry`: the context's DCGM summary, whose `models` name the GPUs of nodes without labels. */
export function cardIssues(
  inv: GpuInventoryStatus | null,
  now: number,
  tr: Translator,
  telemetry?: TelemetrySummary,
): CardIssues {
  const nodes = inv?.nodes ?? [];
  const models = new Map((telemetry?.models ?? []).map((m) => [m.node, m.model]));
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
    const stale = staleLabels(node, tr, models);
    const count = node.problems?.length ?? 0;
    if (count > 0) {
      // Worded only while the card has room: the rest are counted.
      const texts = problems.length < CARD_LIMIT ? gpuProblemTexts(node, tr) : [];
      for (const text of texts.slice(0, CARD_LIMIT - problems.length))
        problems.push({ name: node.name, text });
      problemCount += count;
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
