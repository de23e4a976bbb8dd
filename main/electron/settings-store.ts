/** Settings through electron-store (it extends conf): the same schema, migrations and recovery as under Node. */
import { app } from 'electron';
import Store from 'electron-store';
import { openSettings, type SettingsBackend, type SettingsStore } from '../settings/store.ts';

export function openElectronSettings(): SettingsStore {
  return openSettings({
    cwd: app.getPath('userData'),
    createBackend: (options) => new Store<Record<string, unknown>>(options) as unknown as SettingsBackend,
  });
}
