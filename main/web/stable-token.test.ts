import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STABLE_TOKEN_FILE, StableTokenError, stableToken } from './stable-token.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-token-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = () => path.join(dir, STABLE_TOKEN_FILE);
const GOOD = 'a'.repeat(43);

describe.skipIf(process.platform === 'win32')('the stable session token file', () => {
  it('makes a 0600 file with a new token once, then reads the same token back', async () => {
    const inner = path.join(dir, 'config');
    const first = await stableToken(inner);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(lstatSync(path.join(inner, STABLE_TOKEN_FILE)).mode & 0o777).toBe(0o600);
    expect(lstatSync(inner).mode & 0o777).toBe(0o700);
    expect(await stableToken(inner)).toBe(first);
  });

  it('refuses a file other users can read, with a sentence saying what to do', async () => {
    writeFileSync(file(), GOOD, { mode: 0o600 });
    chmodSync(file(), 0o644);
    await expect(stableToken(dir)).rejects.toThrow(
      new StableTokenError(
        `The stable token file ${file()} can be read by other users (mode 644): run chmod 600 on it, or delete it for a new one.`,
      ),
    );
    chmodSync(file(), 0o600);
    expect(await stableToken(dir)).toBe(GOOD);
  });

  it('refuses a symbolic link, a folder, a file of another user, and one that holds no token', async () => {
    const target = path.join(dir, 'elsewhere');
    writeFileSync(target, GOOD, { mode: 0o600 });
    symlinkSync(target, file());
    await expect(stableToken(dir)).rejects.toThrow(/is a symbolic link, not a regular file/);
    rmSync(file());
    writeFileSync(file(), GOOD, { mode: 0o600 });
    await expect(stableToken(dir, { uid: 12_345 })).rejects.toThrow(/belongs to another user/);
    writeFileSync(file(), 'short\n', { mode: 0o600 });
    await expect(stableToken(dir)).rejects.toThrow(/does not hold a token/);
    rmSync(file());
    mkdirSync(file(), { mode: 0o700 });
    await expect(stableToken(dir)).rejects.toThrow(/is not a regular file/);
  });
});
