/**
 * The system tray: icon, tooltip and menu redrawn whenever the engine host sends a new tray model (it
 * words it), or the host's own state changes (the shell adds that line itself).
 */
import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';
import type { Translator } from '../../common/i18n/translator.ts';
import type { TrayAction, TrayMenuItem, TrayModel } from '../../common/tray-menu.ts';
import { trayIconPath } from './assets.ts';
import { type EngineHostState, withEngine } from './engine-line.ts';

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

/** What the tray shows: the host's model and the host's own state. */
export interface TrayState {
  model: TrayModel;
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
  /** The user's language now, for the engine line (the host words the rest). */
  tr: () => Translator,
): TrayHandle {
  let icon = '';
  // Until the host's first model: just the app's name, and the engine line.
  let state: TrayState = {
    model: { icon: 'idle', tooltip: tr().t('app.name'), menu: [] },
    engine: { kind: 'starting', restarts: 0 },
  };
  const tray = new Tray(nativeImage.createFromPath(trayIconPath('idle')));
  tray.on('click', onClick);
  const update = (change: Partial<TrayState>) => {
    state = { ...state, ...change };
    const model = withEngine(state.model, state.engine, tr());
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
