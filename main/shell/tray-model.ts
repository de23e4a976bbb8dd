/**
 * Pure: the tray's icon, tooltip and menu as data, computed from the fleet snapshot. The Electron
 * layer only turns this into a Tray and Menu, so everything the user sees here is tested under Node.
 */
import { clusterText } from '../../common/cluster-text.ts';
import { PHASE_LABELS } from '../../common/connection.ts';
import type { ContextSnapshot, FleetHealth, FleetSnapshot, KubectlContexts } from '../../common/fleet.ts';
import { contextHealth } from '../../common/health.ts';
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
export function contextLine(ctx: ContextSnapshot): string {
  // The kubeconfig names the context: one line, no control characters, before it reaches the OS menu.
  const name = clusterText(ctx.context, 100);
  const phase = PHASE_LABELS[ctx.connection.phase];
  const inv = ctx.inventory;
  if (contextHealth(ctx) === 'error') {
    return inv
      ? `${name} — ${phase} (last seen ${inv.ready_gpu_nodes}/${inv.total_gpu_nodes})`
      : `${name} — ${phase}`;
  }
  if (!inv) return `${name} — ${phase}`;
  const gpus = `${inv.total_gpus} GPU${inv.total_gpus === 1 ? '' : 's'}`;
  return `${name} — ${inv.ready_gpu_nodes}/${inv.total_gpu_nodes} ready GPU nodes, ${gpus}`;
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
export function downNodeLines(ctx: ContextSnapshot): TrayMenuItem[] {
  const inv = ctx.inventory;
  if (!inv || contextHealth(ctx) === 'error') return [];
  const down = inv.nodes.filter((n) => !n.ready);
  const lines: TrayMenuItem[] = down.slice(0, TRAY_DOWN_NODES_MAX).map((n) => {
    const why = entryReason(n);
    return {
      label: `${INDENT}${clusterText(`${clusterText(n.name, 63)} — ${why}`, TRAY_LINE_MAX - INDENT.length)}`,
      enabled: false,
    };
  });
  if (down.length > TRAY_DOWN_NODES_MAX)
    lines.push({ label: `${INDENT}+${down.length - TRAY_DOWN_NODES_MAX} more down`, enabled: false });
  return lines;
}

/** `kubectl`: the kubeconfig's contexts for the "kubectl context" submenu; null leaves it out. */
export function buildTrayModel(snapshot: FleetSnapshot, kubectl: KubectlContexts | null = null): TrayModel {
  const lines = snapshot.contexts.map(contextLine);
  const paused = snapshot.alertsPausedUntil !== null;
  const tooltip = [
    'GPU Fleet',
    ...(lines.length ? lines : ['No cluster monitored']),
    ...(paused ? ['Alerts paused'] : []),
  ].join('\n');
  const contextItems: TrayMenuItem[] = snapshot.contexts.length
    ? snapshot.contexts.flatMap((ctx) => [
        {
          label: contextLine(ctx),
          type: 'checkbox' as const,
          checked: ctx.context === snapshot.focused,
          action: { kind: 'focus' as const, context: ctx.context },
        },
        ...downNodeLines(ctx),
      ])
    : [{ label: 'No cluster monitored', enabled: false }];
  const pauseItem: TrayMenuItem = paused
    ? { label: 'Resume alerts', action: { kind: 'resume' } }
    : {
        label: 'Pause alerts',
        type: 'submenu',
        submenu: [
          { label: 'For 1 hour', action: { kind: 'pause', until: { kind: 'for', ms: 3_600_000 } } },
          { label: 'Until tomorrow', action: { kind: 'pause', until: { kind: 'tomorrow' } } },
          { label: 'Until I resume', action: { kind: 'pause', until: { kind: 'until-resumed' } } },
        ],
      };
  return {
    icon: snapshot.health,
    tooltip,
    menu: [
      ...contextItems,
      { label: '', type: 'separator' },
      { label: 'Open GPU Fleet', action: { kind: 'open-window' } },
      ...(kubectl ? [kubectlSubmenu(kubectl)] : []),
      pauseItem,
      { label: 'Settings…', action: { kind: 'settings' } },
      { label: 'Open log file', action: { kind: 'open-log' } },
      { label: '', type: 'separator' },
      { label: 'Quit GPU Fleet', action: { kind: 'quit' } },
    ],
  };
}
