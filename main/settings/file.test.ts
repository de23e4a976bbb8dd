/** Opening a settings file we cannot use: moved aside with a timestamp, defaults in use, the user told. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../common/settings.ts';
import { SETTINGS_MAX_BYTES } from './file.ts';
import { openSettings } from './store.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-settings-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const now = () => new Date('2026-11-29T21:40:00.123Z');
const write = (cwd: string, text: string) => fs.writeFileSync(path.join(cwd, 'settings.json'), text);

describe('settings file recovery', () => {
  it('moves corrupt JSON aside and says so in words', () => {
    const cwd = tempDir();
    write(cwd, '{"version": 2, "contexts": [');
    const s = openSettings({ cwd, now });
    expect(s.notices.map((n) => n.message)).toEqual([
      'Your settings file was unreadable; it was moved to settings.corrupt-2026-11-29T21-40-00.json and defaults are in use.',
    ]);
    expect(fs.readFileSync(path.join(cwd, 'settings.corrupt-2026-11-29T21-40-00.json'), 'utf8')).toBe(
      '{"version": 2, "contexts": [',
    );
    expect(s.all()).toEqual(defaultSettings());
    s.update({ contexts: ['home-lab'] });
    expect(JSON.parse(fs.readFileSync(s.path, 'utf8')).contexts).toEqual(['home-lab']);
  });

  it.each([
    ['a schema-invalid field', { ...defaultSettings(), theme: 'blue' }, 'theme'],
    [
      'an unknown field (maybe a pasted credential)',
      { ...defaultSettings(), token: 'abc' },
      'token: Unexpected property',
    ],
    ['a list instead of an object', [1, 2], 'settings object'],
    ['an unknown version', { version: 'two' }, 'unknown settings version'],
  ])('moves aside %s, naming the problem', (_name, content, mentioned) => {
    const cwd = tempDir();
    write(cwd, JSON.stringify(content));
    const s = openSettings({ cwd, now });
    expect(s.notices).toHaveLength(1);
    expect(s.notices[0]?.kind).toBe('corrupt');
    expect(s.notices[0]?.message).toContain(mentioned);
    expect(s.notices[0]?.file).toBe(path.join(cwd, 'settings.corrupt-2026-11-29T21-40-00.json'));
    expect(fs.existsSync(path.join(cwd, 'settings.json'))).toBe(false);
    expect(s.all()).toEqual(defaultSettings());
  });

  it('never overwrites an earlier moved-aside file from the same second', () => {
    const cwd = tempDir();
    write(cwd, 'first');
    openSettings({ cwd, now });
    write(cwd, 'second');
    const s = openSettings({ cwd, now });
    expect(s.notices[0]?.file).toBe(path.join(cwd, 'settings.corrupt-2026-11-29T21-40-00-2.json'));
    expect(fs.readFileSync(path.join(cwd, 'settings.corrupt-2026-11-29T21-40-00.json'), 'utf8')).toBe(
      'first',
    );
  });

  it('moves aside a file from a newer version rather than overwrite it', () => {
    const cwd = tempDir();
    write(cwd, JSON.stringify({ version: 3, contexts: ['x'] }));
    const s = openSettings({ cwd, now });
    expect(s.notices[0]?.kind).toBe('newer');
    expect(s.notices[0]?.message).toBe(
      'Your settings file was written by a newer GPU Fleet (settings version 3); it was moved to settings.newer-2026-11-29T21-40-00.json and defaults are in use.',
    );
  });

  it('treats a path that is not a regular file (a folder) as unusable, and moves it aside', () => {
    const cwd = tempDir();
    fs.mkdirSync(path.join(cwd, 'settings.json'));
    const s = openSettings({ cwd, now });
    expect(s.notices[0]?.message).toBe(
      'Your settings file was not a regular file (it is a folder); it was moved to settings.corrupt-2026-11-29T21-40-00.json and defaults are in use.',
    );
    expect(fs.statSync(path.join(cwd, 'settings.corrupt-2026-11-29T21-40-00.json')).isDirectory()).toBe(true);
  });

  it.skipIf(process.platform === 'win32')(
    'a FIFO does not hang start-up and a symlink to /dev/zero costs no memory: both are refused unread, and moved aside',
    () => {
      for (const make of [
        (f: string) => execFileSync('mkfifo', [f]),
        (f: string) => fs.symlinkSync('/dev/zero', f),
      ]) {
        const cwd = tempDir();
        make(path.join(cwd, 'settings.json'));
        const s = openSettings({ cwd, now });
        expect(s.notices[0]?.message).toMatch(
          /^Your settings file was not a regular file \(it is a (FIFO|character device)\); it was moved to settings\.corrupt-/,
        );
        expect(s.all()).toEqual(defaultSettings());
      }
    },
  );

  it('a file larger than 32 MiB (sparse here) is refused before it is read', () => {
    const cwd = tempDir();
    const file = path.join(cwd, 'settings.json');
    fs.writeFileSync(file, '{}');
    fs.truncateSync(file, SETTINGS_MAX_BYTES + 1);
    const s = openSettings({ cwd, now });
    expect(s.notices[0]?.message).toBe(
      'Your settings file was larger than 32 MiB; it was moved to settings.corrupt-2026-11-29T21-40-00.json and defaults are in use.',
    );
  });

  it('fills fields missing from a current-version file with defaults, quietly, and saves them', () => {
    const cwd = tempDir();
    write(cwd, JSON.stringify({ version: 2, contexts: ['home-lab'], alertRules: { holdDownMs: 5000 } }));
    const s = openSettings({ cwd, now });
    expect(s.notices).toEqual([]);
    expect(s.get('alertRules')).toEqual({ ...defaultSettings().alertRules, holdDownMs: 5000 });
    expect(JSON.parse(fs.readFileSync(s.path, 'utf8')).configMapNamespace).toBe('kube-system');
  });
});
