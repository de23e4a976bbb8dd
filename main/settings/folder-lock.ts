/**
 * One process per settings folder. The desktop app holds its folder through Electron's single-instance
 * lock, which is Chromium's `SingletonLock` in the folder: a symbolic link whose target is
 * `<hostname>-<pid>` of the holder. `gpu-fleet serve` takes the very same lock, so a second `serve` and
 * the desktop app on the same folder see each other, and neither overwrites the other's settings.
 *
 * A lock left by a process that is gone (same host, no such pid) is taken over. Where symbolic links
 * cannot be made (Windows without the privilege), a plain file with the same content is the lock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOCK_NAME = 'SingletonLock';

export class FolderLockedError extends Error {
  override readonly name = 'FolderLockedError';
}

export interface FolderLock {
  readonly file: string;
  release(): void;
}

export interface FolderLockOptions {
  pid?: number;
  hostname?: string;
  /** Whether a process of this host runs under that pid (process.kill(pid, 0) by default). */
  alive?: (pid: number) => boolean;
  /** The lock's file name in the folder (default SingletonLock, the app's); another name locks another thing. */
  name?: string;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): string | null {
  try {
    return fs.lstatSync(file).isSymbolicLink() ? fs.readlinkSync(file) : fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function create(file: string, holder: string): void {
  try {
    fs.symlinkSync(holder, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') throw e;
    fs.writeFileSync(file, holder, { flag: 'wx', mode: 0o600 });
  }
}

/** Takes the folder's lock, or throws a FolderLockedError saying who holds it and what to do. */
export function lockFolder(dir: string, opts: FolderLockOptions = {}): FolderLock {
  const host = opts.hostname ?? os.hostname();
  const pid = opts.pid ?? process.pid;
  const alive = opts.alive ?? running;
  const file = path.join(dir, opts.name ?? LOCK_NAME);
  const mine = `${host}-${pid}`;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      create(file, mine);
      return {
        file,
        release: () => {
          if (readHolder(file) === mine) fs.rmSync(file, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = readHolder(file) ?? '';
    const m = /^(.*)-(\d+)$/.exec(holder);
    const holderPid = m ? Number(m[2]) : null;
    const stale = m !== null && m[1] === host && holderPid !== null && !alive(holderPid);
    if (!stale || attempt > 0) {
      const who = holderPid === null ? 'another GPU Fleet' : `another GPU Fleet (process ${holderPid})`;
      throw new FolderLockedError(
        `The settings folder ${dir} is in use by ${who}; close that one first, or give this one a folder of its own with GPU_FLEET_CONFIG_DIR.`,
      );
    }
    fs.rmSync(file, { force: true });
  }
  throw new FolderLockedError(`The settings folder ${dir} could not be locked.`);
}
