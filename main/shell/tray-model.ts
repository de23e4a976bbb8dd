/**
 * Pure: the tray's icon, tooltip and menu as data, computed from the fleet snapshot, in the user's
 * language. The Electron layer only turns this into a Tray and Menu, so everything the user sees here
 * is tested under Node.
 */
import { clusterText } from '../../common/cluster-text.ts';
import type { ContextSnapshot, FleetHealth, FleetSnapshot, KubectlContexts } from '../../common/fleet.ts';
import { contextHealth } from '../../common/health.ts';
import { PHASE_KEYS } from '../../common/i18n/phase-keys.ts';
import type { Translator } from '../../common/i18n/translator.ts';
import { entryReason } from '../../common/node-reason.ts';
import { kubectlSubmenu } from './kubectl-menu.ts';
import type { TrayMenuItem } from './tray-types.ts';

export type { TrayAction, TrayMenuItem } from './tray-types.ts';

export interface TrayModel {
  icon: FleetHealth;
  tooltip: string;
  menu: TrayMenuItem[];
}

/** One line per context: "home-lab — Live, 3/4 ready GPU nodes". Unreachable is never "0 ready". */
export function contextLine(ctx: ContextSnapshot, tr: Translator): string {
  // The kubeconfig names the context: one line, no control characters, before it reaches the OS menu.
  const context = clusterText(ctx.context, 100);
  const phase = tr.t(PHASE_KEYS[ctx.connection.phase]);
  const inv = ctx.inventory;
  if (contextHealth(ctx) === 'error') {
    return inv
      ? tr.t('tray.lineLastSeen', { context, phase, ready: inv.ready_gpu_nodes, total: inv.total_gpu_nodes })
      : tr.t('tray.line', { context, phase });
  }
  if (!inv) return tr.t('tray.line', { context, phase });
  const gpus = tr.t('common.gpus', { count: inv.total_gpus });
  return tr.t('tray.lineReady', { context, ready: inv.ready_gpu_nodes, total: inv.total_gpu_nodes, gpus });
}

/** Down GPU nodes listed under a context in the menu; the rest are counted. */
export const TRAY_DOWN_NODES_MAX = 5;
const TRAY_LINE_MAX = 80;
const INDENT = '    ';

/**
 * Disabled lines under a context naming its down GPU nodes and why ("   omen — kubelet stopped posting
 * node status"), at most TRAY_DOWN_NODES_MAX and "+N more". None for an unreachable context: its last
 * inventory is old news, and the context line already says so.
 */
export function downNodeLines(ctx: ContextSnapshot, tr: Translator): TrayMenuItem[] {
  const inv = ctx.inventory;
  if (!inv || contextHealth(ctx) === 'error') return [];
  const down = inv.nodes.filter((n) => !n.ready);
  const lines: TrayMenuItem[] = down.slice(0, TRAY_DOWN_NODES_MAX).map((n) => {
    const why = entryReason(n, tr);
    return {
      label: `${INDENT}${clusterText(tr.t('tray.downNode', { node: clusterText(n.name, 63), reason: why }), TRAY_LINE_MAX - INDENT.length)}`,
      enabled: false,
    };
  });
  if (down.length > TRAY_DOWN_NODES_MAX)
    lines.push({
      label: `${INDENT}${tr.t('tray.moreDown', { count: down.length - TRAY_DOWN_NODES_MAX })}`,
      enabled: false,
    });
  return lines;
}

/** `kubectl`: the kubeconfig's contexts for the "kubectl context" submenu; null leaves it out. */
export function buildTrayModel(
  snapshot: FleetSnapshot,
  tr: Translator,
  kubectl: KubectlContexts | null = null,
): TrayModel {
  const lines = snapshot.contexts.map((ctx) => contextLine(ctx, tr));
  const paused = snapshot.alertsPausedUntil !== null;
  const tooltip = [
    tr.t('app.name'),
    ...(lines.length ? lines : [tr.t('tray.noneMonitored')]),
    ...(paused ? [tr.t('tray.alertsPaused')] : []),
  ].join('\n');
  const contextItems: TrayMenuItem[] = snapshot.contexts.length
    ? snapshot.contexts.flatMap((ctx) => [
        {
          label: contextLine(ctx, tr),
          type: 'checkbox' as const,
          checked: ctx.context === snapshot.focused,
          action: { kind: 'focus' as const, context: ctx.context },
        },
        ...downNodeLines(ctx, tr),
      ])
    : [{ label: tr.t('tray.noneMonitored'), enabled: false }];
  const pauseItem: TrayMenuItem = paused
    ? { label: tr.t('tray.resume'), action: { kind: 'resume' } }
    : {
        label: tr.t('tray.pause'),
        type: 'submenu',
        submenu: [
          { label: tr.t('tray.forHour'), action: { kind: 'pause', until: { kind: 'for', ms: 3_600_000 } } },
          { label: tr.t('tray.untilTomorrow'), action: { kind: 'pause', until: { kind: 'tomorrow' } } },
          { label: tr.t('tray.untilResumed'), action: { kind: 'pause', until: { kind: 'until-resumed' } } },
        ],
      };
  return {
    icon: snapshot.health,
    tooltip,
    menu: [
      ...contextItems,
      { label: '', type: 'separator' },
      { label: tr.t('tray.open'), action: { kind: 'open-window' } },
      ...(kubectl ? [kubectlSubmenu(kubectl, tr)] : []),
      pauseItem,
      { label: tr.t('tray.settings'), action: { kind: 'settings' } },
      { label: tr.t('tray.openLog'), action: { kind: 'open-log' } },
      { label: '', type: 'separator' },
      { label: tr.t('tray.quit'), action: { kind: 'quit' } },
    ],
  };
}
