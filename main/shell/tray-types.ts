/** The tray menu as data: what each item shows and the action a click asks for. */
import type { SnoozeUntil } from '../../common/alerts.ts';

export type TrayAction =
  | { kind: 'open-window' }
  | { kind: 'focus'; context: string }
  /** Set kubectl's current context (writes the kubeconfig; only ever on the user's click). */
  | { kind: 'use-context'; context: string }
  | { kind: 'pause'; until: SnoozeUntil }
  | { kind: 'resume' }
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
