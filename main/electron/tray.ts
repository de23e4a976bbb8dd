/**
 * The system tray: icon, tooltip and menu redrawn from the pure tray model on every fleet snapshot and
 * whenever kubectl's contexts change; a pick in "kubectl context" goes to the source, never to onAction.
 */
import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';
import type { FleetSnapshot } from '../../common/fleet.ts';
import type { Translator } from '../../common/i18n/translator.ts';
import type { KubectlMenuSource } from '../shell/kubectl-menu.ts';
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
  onAction: (a: Exclude<TrayAction, { kind: 'use-context' }>) => void,
  onClick: () => void,
  /** The user's language now (the setting can change while the app runs). */
  tr: () => Translator,
  kubectl: KubectlMenuSource | null = null,
): TrayHandle {
  let icon = '';
  let last = initial;
  const tray = new Tray(nativeImage.createFromPath(trayIconPath(initial.health)));
  tray.on('click', onClick);
  const act = (a: TrayAction) =>
    a.kind === 'use-context' ? kubectl?.switchKubectlContext(a.context) : onAction(a);
  const update = (snapshot: FleetSnapshot) => {
    last = snapshot;
    const model = buildTrayModel(snapshot, tr(), kubectl?.kubectlContexts() ?? null);
    if (model.icon !== icon) {
      icon = model.icon;
      const image = nativeImage.createFromPath(trayIconPath(model.icon));
      if (process.platform === 'darwin') image.setTemplateImage(true);
      tray.setImage(image);
    }
    tray.setToolTip(model.tooltip);
    tray.setContextMenu(Menu.buildFromTemplate(toTemplate(model.menu, act)));
  };
  kubectl?.onPush((channel) => {
    if (channel === 'kubectl:contexts') update(last);
  });
  update(initial);
  return {
    update,
    get icon() {
      return icon;
    },
  };
}
