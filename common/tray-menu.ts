/**
 * The tray menu as data: what each item shows and the action a click asks for. The engine host words it
 * (main/engine-host/tray/tray-model.ts) and the shell turns it into the OS menu, so the shell's process does no
 * wording of the fleet.
 */
import type { SnoozeUntil } from './alerts.ts';
import type { FleetHealth } from './fleet.ts';

export type TrayAction =
  | { kind: 'open-window' }
  | { kind: 'focus'; context: string }
  /** Set kubectl's current context (writes the kubeconfig; only ever on the user's click). */
  | { kind: 'use-context'; context: string }
  /** Pause alerts for one context, or for all (no `context`). */
  | { kind: 'pause'; until: SnoozeUntil; context?: string }
  | { kind: 'resume'; context?: string }
  | { kind: 'settings' }
  | { kind: 'open-log' }
  | { kind: 'quit' };

export interface TrayMenuItem {
  label: string;
  type?: 'separator' | 'checkbox' | 'submenu';
  enabled?: boolean;
  checked?: boolean;
  action?: TrayAction;
  submenu?: TrayMenuItem[];
}

export interface TrayModel {
  icon: FleetHealth;
  tooltip: string;
  menu: TrayMenuItem[];
}
