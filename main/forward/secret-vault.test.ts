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
    expect(off).toEqual({
      ok: false,
      error: 'The OS keychain is not available, so forwarding secrets cannot be stored safely.',
    });
    storage.available = true;
    storage.backend = 'basic_text';
    const basic = vault.set('phone', { url: 'http://127.0.0.1:1/t', token: TOKEN });
    expect(basic.ok).toBe(false);
    expect(JSON.stringify(basic)).not.toContain(TOKEN);
    expect(fs.existsSync(vault.file)).toBe(false);
  });

  it('names a target whose secret another keychain encrypted, and keeps the others', () => {
    vault.set('phone', { url: 'http://127.0.0.1:1/a', token: TOKEN });
    const other = new SecretVault(vault.file, new SafeStorageDouble(() => true));
    other.set('chat', { url: 'http://127.0.0.1:1/hook' });
    const loaded = vault.load();
    expect(Object.keys(loaded.secrets)).toEqual(['phone']);
    expect(loaded.problems).toEqual([
      'The secret of forwarding target "chat" cannot be decrypted (the keychain changed?); enter it again.',
    ]);
  });

  it('is not available before the app is ready, as on Linux and Windows', () => {
    let ready = false;
    const early = new SecretVault(vault.file, new SafeStorageDouble(() => ready));
    expect(early.unavailable()).toMatch(/not available/);
    ready = true;
    expect(early.unavailable()).toBeNull();
  });
});
