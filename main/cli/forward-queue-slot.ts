/**
 * Which undelivered-messages file a `gpu-fleet watch --forward` process keeps: one file per process, so
 * two watches on one config folder never write over each other's queue (a message lost) nor both resend
 * the same one after a restart (a message sent twice). The first free of a few slots is taken, each held
 * by a lock file beside it (main/settings/folder-lock.ts: `<host>-<pid>`, taken over when that process
 * is gone); a later watch that takes a dead one's slot delivers what it left. Slot 0 is the file the CLI
 * has always used.
 */
import path from 'node:path';
import { FolderLockedError, type FolderLockOptions, lockFolder } from '../settings/folder-lock.ts';
import { CliError } from './io.ts';

export const CLI_PENDING_FILE = 'forward-queue-cli.json';
export const CLI_QUEUE_SLOTS = 8;

export interface CliQueueSlot {
  /** The queue file this process alone reads and writes. */
  file: string;
  slot: number;
  release(): void;
}

export function queueFileOf(dir: string, slot: number): string {
  return path.join(dir, slot === 0 ? CLI_PENDING_FILE : `forward-queue-cli-${slot}.json`);
}

export function claimCliQueue(dir: string, opts: Omit<FolderLockOptions, 'name'> = {}): CliQueueSlot {
  for (let slot = 0; slot < CLI_QUEUE_SLOTS; slot++) {
    const file = queueFileOf(dir, slot);
    try {
      const lock = lockFolder(dir, { ...opts, name: `${path.basename(file)}.lock` });
      return { file, slot, release: () => lock.release() };
    } catch (error) {
      if (!(error instanceof FolderLockedError)) throw error;
    }
  }
  throw new CliError(
    `${CLI_QUEUE_SLOTS} gpu-fleet watch processes already forward from ${dir}; stop one, or give this one another GPU_FLEET_CONFIG_DIR.`,
  );
}
