/** The system tray icon and its menu. */
import path from 'node:path';
import { Menu, nativeImage, Tray } from 'electron';

export interface TrayActions {
  openWindow(): void;
  quit(): void;
}

export function setupTray(actions: TrayActions): Tray {
  const icon = nativeImage.createFromPath(path.join(__dirname, '../../assets/tray/idle.png'));
  const tray = new Tray(icon);
  tray.setToolTip('GPU Fleet');
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open GPU Fleet', click: () => actions.openWindow() },
      { type: 'separator' },
      { label: 'Quit', click: () => actions.quit() },
    ]),
  );
  tray.on('click', () => actions.openWindow());
  return tray;
}
