/**
 * Electron hardening that applies to every window: no navigation of any frame (will-navigate,
 * will-frame-navigate) and no redirect, no new windows, no webviews, no permissions.
 */
import { type App, session } from 'electron';

const deny = (event: { preventDefault(): void }) => event.preventDefault();

export function setupSecurity(app: App): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', deny);
    // will-navigate covers only the main frame; subframes navigate through this one.
    contents.on('will-frame-navigate', deny);
    contents.on('will-redirect', deny);
    contents.on('will-attach-webview', deny);
  });
}

/** Must run after the app is ready: the default session does not exist before. */
export function denyPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}
