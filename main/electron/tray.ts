/** The system tray: icon, tooltip and menu redrawn from the pure tray model on every fleet snapshot. */
import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';
import type { FleetSnapshot } from '../../common/fleet.ts';
import type { Translator } from '../../common/i18n/translator.ts';
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

export interface TrayHandle {
  update(snapshot: FleetSnapshot): void;
  /** The icon state on show, for tests and logs. */
  readonly icon: string;
}

export function setupTray(
  initial: FleetSnapshot,
  onAction: (a: TrayAction) => void,
  onClick: () => void,
  /** The user's language now (the setting can change while the app runs). */
  tr: () => Translator,
): TrayHandle {
  let icon = '';
  const tray = new Tray(nativeImage.createFromPath(trayIconPath(initial.health)));
  tray.on('click', onClick);
  const update = (snapshot: FleetSnapshot) => {
    const model = buildTrayModel(snapshot, tr());
    if (model.icon !== icon) {
      icon = model.icon;
      const image = nativeImage.createFromPath(trayIconPath(model.icon));
      if (process.platform === 'darwin') image.setTemplateImage(true);
      tray.setImage(image);
    }
    tray.setToolTip(model.tooltip);
    tray.setContextMenu(Menu.buildFromTemplate(toTemplate(model.menu, onAction)));
  };
  update(initial);
  return {
    update,
    get icon() {
      return icon;
    },
  };
}
