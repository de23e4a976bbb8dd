/**
 * The desktop app as a flat list of setup steps (the electron/fiddle style). This folder and
 * main/index.ts are the only places that import 'electron'; the engine they host imports none of it.
 */
import { app } from 'electron';
import { setupIpc } from './ipc.ts';
import { denyPermissions, setupSecurity } from './security.ts';
import { setupTray } from './tray.ts';
import { createWindowManager } from './window.ts';

export async function runDesktop(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  setupSecurity(app);
  await app.whenReady();
  denyPermissions();
  const windows = createWindowManager();
  app.on('second-instance', () => windows.show());
  setupIpc(windows, { version: app.getVersion() });
  setupTray({ openWindow: () => windows.show(), quit: () => app.quit() });
  // A tray app keeps running when its window closes.
  app.on('window-all-closed', () => undefined);
}
