/**
 * Pure: the tray's "Pause alerts" submenu: the three choices for every cluster, then each cluster on
 * its own (a submenu with the same three choices, or, while that cluster is paused, the item that
 * resumes it and says until when). The engine keeps the pauses (main/alerts/snooze.ts).
 */
import type { SnoozeUntil } from '../../../common/alerts.ts';
import { clusterText } from '../../../common/cluster-text.ts';
import type { Translator } from '../../../common/i18n/translator.ts';
import { pauseEndText } from '../../../common/pause-text.ts';
import type { TrayMenuItem } from '../../../common/tray-menu.ts';
import type { TrayFleet } from './tray-fleet.ts';

const HOUR: SnoozeUntil = { kind: 'for', ms: 3_600_000 };
const MORNING: SnoozeUntil = { kind: 'tomorrow' };
const RESUMED: SnoozeUntil = { kind: 'until-resumed' };
/** Clusters offered one by one; a fleet larger than this pauses as a whole from the tray. */
export const TRAY_PAUSE_CONTEXTS_MAX = 25;

function choices(tr: Translator, context?: string): TrayMenuItem[] {
  const at = context === undefined ? {} : { context };
  return [
    { label: tr.t('tray.forHour'), action: { kind: 'pause', until: HOUR, ...at } },
    { label: tr.t('clusterPause.untilMorning'), action: { kind: 'pause', until: MORNING, ...at } },
    { label: tr.t('tray.untilResumed'), action: { kind: 'pause', until: RESUMED, ...at } },
  ];
}

export function pauseSubmenu(fleet: TrayFleet, tr: Translator): TrayMenuItem {
  const clusters: TrayMenuItem[] = fleet.contexts.slice(0, TRAY_PAUSE_CONTEXTS_MAX).map((ctx) => {
    const label = clusterText(ctx.context, 80);
    if (ctx.pausedUntil === null) return { label, type: 'submenu', submenu: choices(tr, ctx.context) };
    const until = pauseEndText(ctx.pausedUntil, fleet.now, tr) ?? '';
    return {
      label: tr.t('clusterPause.resumeCluster', { context: label, until }),
      action: { kind: 'resume', context: ctx.context },
    };
  });
  return {
    label: tr.t('tray.pause'),
    type: 'submenu',
    submenu: [
      ...choices(tr),
      ...(clusters.length > 0
        ? [
            { label: '', type: 'separator' as const },
            { label: tr.t('clusterPause.oneCluster'), enabled: false },
          ]
        : []),
      ...clusters,
    ],
  };
}
