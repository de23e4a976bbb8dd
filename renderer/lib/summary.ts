/** One sentence per context for the screen-reader live region: changes only when a state does. */
import type { ContextSnapshot } from '../../common/fleet.ts';
import type { Translator } from '../../common/i18n/translator.ts';
import { isErrorPhase, PHASE_KEYS } from './contexts.ts';

export function contextSentence(c: ContextSnapshot, tr: Translator): string {
  const phase = tr.t(PHASE_KEYS[c.connection.phase]);
  const inv = c.inventory;
  if (isErrorPhase(c.connection.phase) || !inv) return tr.t('summary.phase', { context: c.context, phase });
  return tr.t('summary.ready', {
    context: c.context,
    ready: inv.ready_gpu_nodes,
    total: inv.total_gpu_nodes,
  });
}

export function fleetSummary(contexts: readonly ContextSnapshot[], tr: Translator): string {
  return contexts.map((c) => contextSentence(c, tr)).join(tr.t('common.sentenceSeparator'));
}
