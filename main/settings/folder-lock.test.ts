import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderLockedError, LOCK_NAME, lockFolder } from './folder-lock.ts';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});
const fresh = () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-lock-'));
  return dir;
};

describe('lockFolder (the SingletonLock the desktop app holds)', () => {
  it('one holder at a time; the second is told who holds it, in one sentence', () => {
    const d = fresh();
    const first = lockFolder(d, { pid: 101, hostname: 'box', alive: () => true });
    expect(fs.readlinkSync(path.join(d, LOCK_NAME))).toBe('box-101');
    expect(() => lockFolder(d, { pid: 202, hostname: 'box', alive: () => true })).toThrow(
      new FolderLockedError(
        `The settings folder ${d} is in use by another GPU Fleet (process 101); close that one first, or give this one a folder of its own with GPU_FLEET_CONFIG_DIR.`,
      ),
    );
    first.release();
    expect(fs.existsSync(path.join(d, LOCK_NAME))).toBe(false);
    lockFolder(d, { pid: 202, hostname: 'box', alive: () => true }).release();
  });

  it('takes over a lock whose process is gone, never one of another host', () => {
    const d = fresh();
    fs.symlinkSync('box-999', path.join(d, LOCK_NAME));
    const lock = lockFolder(d, { pid: 5, hostname: 'box', alive: (pid) => pid !== 999 });
    expect(fs.readlinkSync(lock.file)).toBe('box-5');
    lock.release();
    fs.symlinkSync('other-999', path.join(d, LOCK_NAME));
    expect(() => lockFolder(d, { pid: 5, hostname: 'box', alive: () => false })).toThrow(FolderLockedError);
  });

  it('release() leaves a lock alone that is not its own any more', () => {
    const d = fresh();
    const lock = lockFolder(d, { pid: 1, hostname: 'box', alive: () => true });
    fs.rmSync(lock.file);
    fs.symlinkSync('box-2', lock.file);
    lock.release();
    expect(fs.readlinkSync(lock.file)).toBe('box-2');
  });
});
