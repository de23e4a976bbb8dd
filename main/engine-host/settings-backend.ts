/**
 * The desktop app's settings backend: electron-store, opened in the engine host (an Electron utility
 * process) on the absolute folder main gave it (`HostInit.settingsDir`, Electron's userData). Only entry.ts
 * loads this file (test/architecture/layers.ts holds it to that): electron-store imports 'electron', and in
 * a utility process that is Electron's utility module, with no `app` and no `ipcMain`. So electron-store
 * has no userData to default to and no app version there: it takes the absolute `cwd` we pass and throws
 * on a missing or relative one (openSettings turns that into an "unsaved" notice). We never call
 * `initRenderer()`: it registers an ipcMain listener for stores in a renderer, and the window has none.
 * The file name goes in `name`: electron-store overwrites conf's `configName` with it (default
 * 'config'), and it must stay settings.json, the file the CLI's conf reads.
 */
import ElectronStore from 'electron-store';
import type { SettingsBackend, SettingsBackendOptions } from '../settings/store.ts';

export function electronStoreBackend(options: SettingsBackendOptions): SettingsBackend {
  // electron-store takes neither `configName` nor `projectName` (the folder is `cwd`, always given).
  const { configName, projectName: _projectName, ...rest } = options;
  return new ElectronStore<Record<string, unknown>>({ ...rest, name: configName });
}
