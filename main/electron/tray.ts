/**
 * The system tray: icon, tooltip and menu redrawn from the pure tray model whenever the engine host sends
 * a new tray summary, its own state changes, or the language does.
 */
import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';
import type { KubectlContexts } from '../../common/fleet.ts';
import type { TrayFleet } from '../../common/host-protocol.ts';
import type { Translator } from '../../common/i18n/translator.ts';
import type { EngineHostState } from '../shell/engine-line.ts';
import { buildTrayModel, type TrayAction, type TrayMenuItem } from '../shell/tray-model.ts';
import { trayIconPath } from './assets.ts';

export function toTemplate(
  items: readonly TrayMenuItem[],
  onAction: (a: TrayAction) => void,
): MenuItemConstructorOptions[] {
  return items.map((item) => {
    if (item.type === 'separator') return { type: 'separator' };
    const action = item.action;
    return {
      label: item.label,
      ...(item.type === 'checkbox' ? { type: 'checkbox' as const, checked: item.checked ?? false } : {}),
      ...(item.enabled === false ? { enabled: false } : {}),
      ...(item.submenu ? { submenu: toTemplate(item.submenu, onAction) } : {}),
      ...(action ? { click: () => onAction(action) } : {}),
    };
  });
}

/** What the tray shows: the host's summary and kubectl contexts, and the host's own state. */
export interface TrayState {
  fleet: TrayFleet;
  kubectl: KubectlContexts | null;
  engine: EngineHostState;
}

export interface TrayHandle {
  update(change: Partial<TrayState>): void;
  /** The icon state on show, for tests and logs. */
  readonly icon: string;
}

export function setupTray(
  onAction: (a: TrayAction) => void,
  onClick: () => void,
  /** The user's language now (the setting can change while the app runs). */
  tr: () => Translator,
): TrayHandle {
  let icon = '';
  let state: TrayState = {
    fleet: { contexts: [], focused: null, alertsPausedUntil: null, health: 'idle' },
    kubectl: null,
    engine: { kind: 'starting', restarts: 0 },
  };
  const tray = new Tray(nativeImage.createFromPath(trayIconPath('idle')));
  tray.on('click', onClick);
  const update = (change: Partial<TrayState>) => {
    state = { ...state, ...change };
    const model = buildTrayModel(state.fleet, tr(), state.kubectl, state.engine);
    if (model.icon !== icon) {
      icon = model.icon;
      const image = nativeImage.createFromPath(trayIconPath(model.icon));
      if (process.platform === 'darwin') image.setTemplateImage(true);
      tray.setImage(image);
    }
    tray.setToolTip(model.tooltip);
    tray.setContextMenu(Menu.buildFromTemplate(toTemplate(model.menu, onAction)));
  };
  update({});
  return {
    update,
    get icon() {
      return icon;
    },
  };
}
