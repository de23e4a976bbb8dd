/**
 * The window's page is served from `gpu-fleet://app/` (protocol.handle) instead of file://: a file://
 * page may read any file the user can, and with the GrantFileProtocolExtraPrivileges fuse off
 * (forge.config.ts) file:// gets no more than an ordinary web page either.
 */
import { protocol } from 'electron';
import { serveAppFile } from './app-files.ts';
import { APP_SCHEME } from './app-origin.ts';

/** Must run before the app is ready: a scheme registered later is not standard or secure. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** After ready: answer the scheme from the built renderer folder. */
export function handleAppProtocol(root: string): void {
  protocol.handle(APP_SCHEME, (request) => serveAppFile(root, request.url));
}
