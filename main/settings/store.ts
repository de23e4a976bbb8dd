/**
 * The settings store: typed reads, validated whole-document updates, persisted through a backend that is
 * `conf` by default (the CLI, browser mode, the demo seeding) and electron-store in the desktop app's
 * engine host, which passes `createBackend` (main/engine-host/settings-backend.ts). electron-store extends
 * conf, so both write the same settings.json in the same folder, with the one schema (common/settings.ts) and migrations.ts.
 * We run our own TypeBox validation and version migrations around a plain backend instead of
 * conf's `schema`/`migrations`: conf's migrations are keyed to the app's semver (not a settings
 * version), its ajv schema re-validates the file on every read, and with `clearInvalidConfig` it
 * silently discards a bad file, while we must move it aside and say so.
 */
import path from 'node:path';
import Conf from 'conf';
import { isObj } from '../../common/json-guards.ts';
import { SETTINGS_VERSION, type Settings, SettingsSchema } from '../../common/settings.ts';
import { loadSettingsFile, type SettingsNotice } from './file.ts';
import { assertSettings, fieldNames, SettingsError } from './validate.ts';
import { fitToFile } from './write-cap.ts';

export type { SettingsNotice } from './file.ts';
export { SettingsError } from './validate.ts';

/** Every key but `version`, which only migrations change. */
export type SettingsUpdate = Partial<Omit<Settings, 'version'>>;

export interface SettingsBackendOptions {
  cwd: string;
  projectName?: string;
  configName: string;
  accessPropertiesByDotNotation: false;
  clearInvalidConfig: false;
  watch: false;
}

/** The part of conf (and electron-store, a subclass) we use: the whole document, read and written at once. */
export interface SettingsBackend {
  store: Record<string, unknown>;
}

export interface SettingsStore {
  readonly path: string;
  /** What happened at open that the UI must tell the user (moved-aside file, upgrade, unsaved). */
  readonly notices: readonly SettingsNotice[];
  get<K extends keyof Settings>(key: K): Readonly<Settings[K]>;
  all(): Readonly<Settings>;
  /** Validates the merged document; on error throws SettingsError naming the fields, nothing written. */
  update(patch: SettingsUpdate): Readonly<Settings>;
}

export interface OpenSettingsOptions {
  cwd: string;
  projectName?: string;
  now?: () => Date;
  createBackend?: (options: SettingsBackendOptions) => SettingsBackend;
  /** The most the file may hold when written (write-cap.ts): SETTINGS_MAX_BYTES, smaller in tests. */
  maxFileBytes?: number;
}

export const SETTINGS_FILE_NAME = 'settings';
export const ALERT_LOG_LIMIT = 500;
const PATCH_KEYS = new Set(Object.keys(SettingsSchema.properties).filter((k) => k !== 'version'));

export function settingsBackendOptions(cwd: string, projectName?: string): SettingsBackendOptions {
  return {
    cwd,
    ...(projectName === undefined ? {} : { projectName }),
    configName: SETTINGS_FILE_NAME,
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
    watch: false,
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** The file system's code of a failed write (EACCES, ENOSPC …), else the error's name: never its text. */
const errnoOf = (e: unknown) => {
  const code = isObj(e) ? e.code : undefined;
  return typeof code === 'string' && /^E[A-Z0-9]{1,15}$/.test(code)
    ? code
    : e instanceof Error
      ? e.name
      : 'Error';
};

export function openSettings(opts: OpenSettingsOptions): SettingsStore {
  const now = opts.now ?? (() => new Date());
  const file = path.join(opts.cwd, `${SETTINGS_FILE_NAME}.json`);
  const loaded = loadSettingsFile(file, now());
  const notices = [...loaded.notices];
  let current = deepFreeze(loaded.settings);
  let backend: SettingsBackend | null = null;
  if (loaded.writable) {
    try {
      const options = settingsBackendOptions(opts.cwd, opts.projectName);
      backend = opts.createBackend ? opts.createBackend(options) : new Conf<Record<string, unknown>>(options);
      const fitted = loaded.dirty ? fitToFile(current, opts.maxFileBytes) : null;
      if (fitted?.ok) {
        current = deepFreeze(fitted.doc);
        backend.store = { ...current };
      } else if (fitted) {
        backend = null;
        notices.push({ kind: 'unsaved', message: fitted.message, file });
      }
    } catch (e) {
      backend = null;
      notices.push({ kind: 'unsaved', message: `Settings cannot be saved (${message(e)}).`, file });
    }
  }

  return {
    path: file,
    notices,
    get: (key) => current[key],
    all: () => current,
    update(patch) {
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
        throw new SettingsError('Invalid settings: an update must be an object of fields.', [], {
          code: 'settingsNotObject',
        });
      }
      const unknown = Object.keys(patch).filter((k) => !PATCH_KEYS.has(k));
      if (unknown.length > 0) {
        throw new SettingsError(
          `Invalid settings: unknown or read-only field ${unknown.join(', ')}.`,
          unknown,
          { code: 'settingsUnknown', fields: fieldNames(unknown) },
        );
      }
      const merged: Record<string, unknown> = { ...current, ...patch, version: SETTINGS_VERSION };
      // The newest ALERT_LOG_LIMIT entries are kept (what alerts/alert-log.ts trimLog does; settings sit below alerts).
      if (Array.isArray(merged.alertLog)) merged.alertLog = merged.alertLog.slice(-ALERT_LOG_LIMIT);
      // At most what the next start reads: the oldest alerts give way, or the update is refused.
      const fitted = fitToFile(assertSettings(structuredClone(merged)), opts.maxFileBytes);
      if (!fitted.ok)
        throw new SettingsError(fitted.message, [], {
          code: 'settingsTooLarge',
          size: fitted.size,
          max: fitted.max,
        });
      const next = fitted.doc;
      if (backend !== null) {
        try {
          backend.store = { ...next };
        } catch (e) {
          throw new SettingsError(`Settings could not be saved: ${message(e)}`, [], {
            code: 'settingsSaveFailed',
            errno: errnoOf(e),
          });
        }
      }
      current = deepFreeze(next);
      return current;
    },
  };
}
