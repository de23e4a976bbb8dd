/** Where the app's icons are: next to the app in development, in the resources folder when packaged. */
import path from 'node:path';
import { app } from 'electron';
import type { FleetHealth } from '../../common/fleet.ts';

export function assetsDir(): string {
  return app.isPackaged ? path.join(process.resourcesPath, 'assets') : path.join(app.getAppPath(), 'assets');
}

/** macOS wants monochrome template images in the menu bar; Electron picks the @2x file itself. */
export function trayIconPath(health: FleetHealth, platform = process.platform): string {
  return path.join(assetsDir(), 'tray', platform === 'darwin' ? `${health}Template.png` : `${health}.png`);
}
