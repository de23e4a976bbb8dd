/**
 * Pure: what the scheduler would do with a new pod on this node, in words: cordoned, kept off by a
 * NoSchedule / NoExecute taint (naming it), avoided (PreferNoSchedule), or schedulable. "Not cordoned"
 * is not "schedulable": a tainted node takes only pods that tolerate the taint.
 */
import type { Translator } from '../../common/i18n/translator.ts';
import type { NodeDetail, NodeTaintView } from '../../common/node-detail.ts';

export type SchedulingKind = 'cordoned' | 'tainted' | 'avoided' | 'schedulable';

export interface Scheduling {
  kind: SchedulingKind;
  text: string;
}

export const taintText = (t: NodeTaintView): string => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;

/** The taints of one effect, at most three named ("+N more" after). */
function named(taints: readonly NodeTaintView[], tr: Translator): string {
  const shown = taints.slice(0, 3).map(taintText);
  const more = taints.length - shown.length;
  return tr.list(more > 0 ? [...shown, tr.t('scheduling.more', { count: more })] : shown);
}

export function scheduling(d: Pick<NodeDetail, 'unschedulable' | 'taints'>, tr: Translator): Scheduling {
  if (d.unschedulable) return { kind: 'cordoned', text: tr.t('scheduling.cordoned') };
  const keepOff = d.taints.filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  if (keepOff.length > 0) {
    const evicts = keepOff.some((t) => t.effect === 'NoExecute');
    return {
      kind: 'tainted',
      text: tr.t(evicts ? 'scheduling.taintedEvicts' : 'scheduling.tainted', {
        count: keepOff.length,
        taints: named(keepOff, tr),
      }),
    };
  }
  const avoid = d.taints.filter((t) => t.effect === 'PreferNoSchedule');
  if (avoid.length > 0)
    return {
      kind: 'avoided',
      text: tr.t('scheduling.avoided', { count: avoid.length, taints: named(avoid, tr) }),
    };
  return { kind: 'schedulable', text: tr.t('scheduling.schedulable') };
}
