/**
 * Pure: the tray's icon, tooltip and menu as data, in the user's language: made in the engine host from
 * the tray's part of the fleet snapshot (tray-fleet.ts); the shell adds only what it knows itself, the
 * engine host's state (`withEngine`, main/electron/engine-line.ts). The Electron layer only turns this into a Tray and Menu, so
 * everything the user sees here is tested under Node.
 */
import { clusterText } from '../../../common/cluster-text.ts';
import type { KubectlContexts } from '../../../common/fleet.ts';
import { contextHealth } from '../../../common/health.ts';
import { PHASE_KEYS } from '../../../common/i18n/phase-keys.ts';
import type { Translator } from '../../../common/i18n/translator.ts';
import { entryReason } from '../../../common/node-reason.ts';
import { pauseEndText } from '../../../common/pause-text.ts';
import type { TrayMenuItem, TrayModel } from '../../../common/tray-menu.ts';
import { kubectlSubmenu } from './kubectl-menu.ts';
import { pauseSubmenu } from './pause-menu.ts';
import type { TrayContext, TrayFleet } from './tray-fleet.ts';
import { TRAY_DOWN_NODES_MAX } from './tray-fleet.ts';
import { freeMenu } from './tray-free.ts';

export type { TrayAction, TrayMenuItem, TrayModel } from '../../../common/tray-menu.ts';
export { TRAY_DOWN_NODES_MAX } from './tray-fleet.ts';

/** One line per context: "home-lab — Live, 3/4 ready GPU nodes". Unreachable is never "0 ready". */
export function contextLine(ctx: TrayContext, tr: Translator): string {
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

const TRAY_LINE_MAX = 80;
const INDENT = '    ';

/**
 * Disabled lines under a context naming its down GPU nodes and why ("   omen — kubelet stopped posting
 * node status"), at most TRAY_DOWN_NODES_MAX and "+N more". None for an unreachable context: its last
 * inventory is old news, and the context line already says so.
 */
export function downNodeLines(ctx: TrayContext, tr: Translator): TrayMenuItem[] {
  if (!ctx.inventory || contextHealth(ctx) === 'error') return [];
  const lines: TrayMenuItem[] = ctx.down.slice(0, TRAY_DOWN_NODES_MAX).map((n) => {
    const why = entryReason(n, tr);
    return {
      label: `${INDENT}${clusterText(tr.t('tray.downNode', { node: clusterText(n.name, 63), reason: why }), TRAY_LINE_MAX - INDENT.length)}`,
      enabled: false,
    };
  });
  // A flapping node that is Ready just now: the icon says degraded, this line says why.
  const down = new Set(ctx.down.map((n) => n.name));
  for (const node of ctx.flapping)
    if (!down.has(node))
      lines.push({
        label: `${INDENT}${clusterText(tr.t('tray.flappingNode', { node: clusterText(node, 63) }), TRAY_LINE_MAX - INDENT.length)}`,
        enabled: false,
      });
  const more = ctx.downCount - ctx.down.slice(0, TRAY_DOWN_NODES_MAX).length;
  if (more > 0)
    lines.push({
      label: `${INDENT}${tr.t('tray.moreDown', { count: more })}`,
      enabled: false,
    });
  return lines;
}

/** `kubectl`: the kubeconfig's contexts for the "kubectl context" submenu; null leaves it out. */
export function buildTrayModel(
  snapshot: TrayFleet,
  tr: Translator,
  kubectl: KubectlContexts | null = null,
): TrayModel {
  // A paused context says so on its line: its health is still shown, its alerts will not come.
  const pausedLine = (ctx: TrayContext) => {
    const line = contextLine(ctx, tr);
    return ctx.pausedUntil === null ? line : tr.t('clusterPause.trayPaused', { line });
  };
  const lines = snapshot.contexts.map(pausedLine);
  const paused = snapshot.alertsPausedUntil !== null;
  // The headline: free GPUs across every cluster (absent while no context has free-GPU figures).
  const free = freeMenu(snapshot.contexts, tr);
  const tooltip = [
    tr.t('app.name'),
    ...(free ? [free.label] : []),
    ...(lines.length ? lines : [tr.t('tray.noneMonitored')]),
    ...(paused
      ? [
          `${tr.t('tray.alertsPaused')} ${pauseEndText(snapshot.alertsPausedUntil ?? '', snapshot.now, tr) ?? ''}`.trim(),
        ]
      : []),
  ].join('\n');
  const contextItems: TrayMenuItem[] = snapshot.contexts.length
    ? snapshot.contexts.flatMap((ctx) => [
        {
          label: pausedLine(ctx),
          type: 'checkbox' as const,
          checked: ctx.context === snapshot.focused,
          action: { kind: 'focus' as const, context: ctx.context },
        },
        ...downNodeLines(ctx, tr),
      ])
    : [{ label: tr.t('tray.noneMonitored'), enabled: false }];
  const pauseItem: TrayMenuItem = paused
    ? { label: tr.t('tray.resume'), action: { kind: 'resume' } }
    : pauseSubmenu(snapshot, tr);
  return {
    icon: snapshot.health,
    tooltip,
    menu: [
      ...(free ? [free, { label: '', type: 'separator' as const }] : []),
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
