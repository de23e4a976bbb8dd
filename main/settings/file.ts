/**
 * Reading the settings file at open: parse, migrate, and move aside (with a timestamp) any file we
 * cannot use, so defaults take over and the user is told where their old file went. Never throws.
 */
import fs from 'node:fs';
import path from 'node:path';
import { defaultSettings, type Settings } from '../../common/settings.ts';
import { readBoundedFile } from './bounded-file.ts';
import { migrate } from './migrations.ts';

export interface SettingsNotice {
  kind: 'corrupt' | 'newer' | 'migrated' | 'unsaved';
  /** One or two sentences for the user. */
  message: string;
  /** Where the old file now is, if it was moved or copied. */
  file: string | null;
}

export interface LoadedSettings {
  settings: Settings;
  notices: SettingsNotice[];
  /** The file must be (re)written: it was absent-but-needed, migrated, or filled with defaults. */
  dirty: boolean;
  /** False when a bad file could not be moved aside: writing would destroy it. */
  writable: boolean;
}

/** "settings.corrupt-2026-11-29T21-40-00.json", with -2, -3… if that name is taken. */
export function asideName(file: string, tag: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replaceAll(':', '-');
  const ext = path.extname(file);
  const base = path.join(path.dirname(file), `${path.basename(file, ext)}.${tag}-${stamp}`);
  let candidate = `${base}${ext}`;
  for (let i = 2; fs.existsSync(candidate); i++) candidate = `${base}-${i}${ext}`;
  return candidate;
}

const errorCode = (e: unknown) => (e instanceof Error && 'code' in e ? String(e.code) : String(e));

function moveAside(file: string, tag: string, at: Date): { to: string } | { error: string } {
  try {
    const to = asideName(file, tag, at);
    fs.renameSync(file, to);
    return { to };
  } catch (e) {
    return { error: errorCode(e) };
  }
}

function useDefaults(file: string, tag: 'corrupt' | 'newer', why: string, at: Date): LoadedSettings {
  const moved = moveAside(file, tag, at);
  const settings = defaultSettings();
  if ('to' in moved) {
    const name = path.basename(moved.to);
    const message = `Your settings file was ${why}; it was moved to ${name} and defaults are in use.`;
    return { settings, notices: [{ kind: tag, message, file: moved.to }], dirty: false, writable: true };
  }
  const message =
    `Your settings file was ${why} and could not be moved aside (${moved.error}); ` +
    'defaults are in use and changes will not be saved until it is fixed or removed.';
  return { settings, notices: [{ kind: 'unsaved', message, file }], dirty: false, writable: false };
}

/**
 * Far above any settings file the app writes (500 alerts and the last inventory of a few contexts), and
 * far below what a symlink to /dev/zero or a runaway file would cost to read.
 */
export const SETTINGS_MAX_BYTES = 32 << 20;

export function loadSettingsFile(file: string, now: Date): LoadedSettings {
  // Only a regular file of bounded size: a FIFO would hang start-up, /dev/zero would grow memory for ever.
  const read = readBoundedFile(file, SETTINGS_MAX_BYTES);
  if (!read.ok) {
    if (read.reason === 'missing')
      return { settings: defaultSettings(), notices: [], dirty: false, writable: true };
    // "Your settings file was …": "unreadable (EACCES)", "larger than 32 MiB", "not a regular file (…)".
    const why =
      read.reason === 'unreadable'
        ? `unreadable ${read.why.slice('cannot be read '.length)}`
        : read.why.replace(/^is /, '');
    return useDefaults(file, 'corrupt', why, now);
  }
  const text = read.bytes.toString('utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return useDefaults(file, 'corrupt', 'unreadable', now);
  }
  const result = migrate(raw);
  if (!result.ok) {
    const why =
      result.reason === 'newer' ? result.message : `not valid (${result.message.replace(/\.$/, '')})`;
    return useDefaults(file, result.reason === 'newer' ? 'newer' : 'corrupt', why, now);
  }
  if (result.from === result.settings.version) {
    return { settings: result.settings, notices: [], dirty: result.changed, writable: true };
  }
  // Keep the old version's file: the new app writes over it, and a downgrade may want it back.
  const copy = asideName(file, `v${result.from}`, now);
  try {
    fs.copyFileSync(file, copy);
  } catch (e) {
    const message = `Your settings could not be upgraded safely (${errorCode(e)}); they are in use but will not be saved.`;
    return {
      settings: result.settings,
      notices: [{ kind: 'unsaved', message, file }],
      dirty: false,
      writable: false,
    };
  }
  const message = `Your settings were upgraded from version ${result.from}; the old file was kept as ${path.basename(copy)}.`;
  return {
    settings: result.settings,
    notices: [{ kind: 'migrated', message, file: copy }],
    dirty: true,
    writable: true,
  };
}
