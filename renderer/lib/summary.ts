/** One sentence per context for the screen-reader live region: changes only when a state does. */
import { PHASE_LABELS } from '../../common/connection.ts';
import type { ContextSnapshot } from '../../common/fleet.ts';
import { isErrorPhase } from './contexts.ts';

export function contextSentence(c: ContextSnapshot): string {
  const phase = PHASE_LABELS[c.connection.phase];
  if (isErrorPhase(c.connection.phase)) return `${c.context}: ${phase}.`;
  const inv = c.inventory;
  if (!inv) return `${c.context}: ${phase}.`;
  return `${c.context}: ${inv.ready_gpu_nodes} of ${inv.total_gpu_nodes} GPU nodes ready.`;
}

export function fleetSummary(contexts: readonly ContextSnapshot[]): string {
  return contexts.map(contextSentence).join(' ');
}
