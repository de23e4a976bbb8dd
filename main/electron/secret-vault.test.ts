/**
 * The forwarding secrets' vault through the Electron double's safeStorage: nothing readable on disk,
 * 0600, refusals without a byte of the secret, a changed keychain named per target.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SafeStorageDouble } from '../../test/electron/safe-storage-double.ts';
import { SecretVault } from './secret-vault.ts';

const TOKEN = 'tk_plantedplantedplantedplanted1';
let dir: string;
let storage: SafeStorageDouble;
let vault: SecretVault;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-vault-'));
  storage = new SafeStorageDouble(() => true);
  vault = new SecretVault(path.join(dir, 'forward-secrets.json'), storage);
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('SecretVault', () => {
  it('keeps a secret encrypted (the file holds no byte of it, mode 0600) and gives it back', () => {
    expect(vault.set('phone', { url: 'http://127.0.0.1:8090/gpu-alerts', token: TOKEN })).toEqual({
      ok: true,
    });
    const text = fs.readFileSync(vault.file, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('gpu-alerts');
    expect(fs.statSync(vault.file).mode & 0o777).toBe(0o600);
    expect(vault.load()).toEqual({
      secrets: { phone: { url: 'http://127.0.0.1:8090/gpu-alerts', token: TOKEN } },
      problems: [],
    });
    expect(vault.remove('phone')).toEqual({ ok: true });
    expect(vault.load().secrets).toEqual({});
  });

  it('refuses to store while encryption is unavailable, or on a Linux desktop without a secret store', () => {
    storage.available = false;
    const off = vault.set('phone', { url: 'http://127.0.0.1:1/t', token: TOKEN });
    expect(off).toEqual({ ok: false, words: { code: 'keychainMissing' } });
    storage.available = true;
    storage.backend = 'basic_text';
    const basic = vault.set('phone', { url: 'http://127.0.0.1:1/t', token: TOKEN });
    expect(basic).toEqual({ ok: false, words: { code: 'keychainBasicText' } });
    expect(JSON.stringify(basic)).not.toContain(TOKEN);
    expect(fs.existsSync(vault.file)).toBe(false);
  });

  it('names a target whose secret another keychain encrypted, and keeps the others', () => {
    vault.set('phone', { url: 'http://127.0.0.1:1/a', token: TOKEN });
    const other = new SecretVault(vault.file, new SafeStorageDouble(() => true));
    other.set('chat', { url: 'http://127.0.0.1:1/hook' });
    const loaded = vault.load();
    expect(Object.keys(loaded.secrets)).toEqual(['phone']);
    expect(loaded.problems).toEqual([{ code: 'secretUndecryptable', id: 'chat' }]);
  });

  it('is not available before the app is ready, as on Linux and Windows', () => {
    let ready = false;
    const early = new SecretVault(vault.file, new SafeStorageDouble(() => ready));
    expect(early.unavailable()).toEqual({ code: 'keychainMissing' });
    ready = true;
    expect(early.unavailable()).toBeNull();
  });
  it.each([
    ['not JSON', '{"version":1,"secrets":{"phone":"AAAA"', 'notJson'],
    ['too large', `{"version":1,"secrets":{},"pad":"${'x'.repeat(300 * 1024)}"}`, 'tooLarge'],
    ['another shape', '[1,2,3]', 'noList'],
    [
      'an entry that is no target id',
      '{"version":1,"secrets":{"__proto__":"AAAA","Bad Id":"AAAA"}}',
      'badEntry',
    ],
  ])(
    'moves a vault file that is %s aside, says so once, and a save does not overwrite it',
    (_what, text, why) => {
      fs.writeFileSync(vault.file, text, { mode: 0o600 });
      const first = vault.load();
      expect(first.secrets).toEqual({});
      expect(first.problems).toHaveLength(1);
      expect(first.problems[0]).toEqual({
        code: 'vaultMovedAside',
        why,
        aside: expect.stringMatching(/^forward-secrets\.json\.unreadable-\d+-0$/),
      });
      const aside = fs.readdirSync(dir).filter((f) => f.includes('.unreadable-'));
      expect(aside).toHaveLength(1);
      expect(fs.readFileSync(path.join(dir, aside[0] as string), 'utf8')).toBe(text);
      expect(vault.load().problems).toEqual([]);
      expect(vault.set('phone', { url: 'http://127.0.0.1:8090/gpu-alerts', token: TOKEN })).toEqual({
        ok: true,
      });
      expect(fs.readFileSync(path.join(dir, aside[0] as string), 'utf8')).toBe(text);
      expect(vault.load()).toEqual({
        secrets: { phone: { url: 'http://127.0.0.1:8090/gpu-alerts', token: TOKEN } },
        problems: [],
      });
    },
  );

  it('reads a missing file as no secrets, with no problem', () => {
    expect(vault.load()).toEqual({ secrets: {}, problems: [] });
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
