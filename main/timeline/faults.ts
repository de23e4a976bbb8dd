/**
 * What went wrong with the timeline's file, as a kind and the sentence's tail the user reads after
 * "not recording: …". SQLite's result codes (node:sqlite puts them in `errcode`) and the file system's
 * error codes are the only inputs; nothing of a path or a message from elsewhere is shown.
 */

export type TimelineFault =
  | { kind: 'full'; reason: string }
  | { kind: 'read-only'; reason: string }
  | { kind: 'corrupt'; reason: string }
  | { kind: 'busy'; reason: string }
  | { kind: 'newer'; reason: string }
  | { kind: 'io'; reason: string };

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

const prop = (e: unknown, key: string): unknown =>
  typeof e === 'object' && e !== null ? (e as Record<string, unknown>)[key] : undefined;

export function classifyFault(error: unknown): TimelineFault {
  const errcode = prop(error, 'errcode');
  const primary = typeof errcode === 'number' ? errcode & 0xff : null;
  const code = prop(error, 'code');
  if (primary === SQLITE_FULL || code === 'ENOSPC') return { kind: 'full', reason: 'the disk is full' };
  if (primary === SQLITE_READONLY || code === 'EROFS' || code === 'EACCES' || code === 'EPERM')
    return { kind: 'read-only', reason: 'the data folder is read-only' };
  if (primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB)
    return { kind: 'corrupt', reason: 'the timeline file is damaged' };
  if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED)
    return { kind: 'busy', reason: 'another GPU Fleet process is writing the timeline' };
  if (primary === SQLITE_CANTOPEN) return { kind: 'io', reason: 'the timeline file cannot be opened' };
  if (primary === SQLITE_IOERR) return { kind: 'io', reason: 'the disk could not be written' };
  return { kind: 'io', reason: 'the timeline could not be written' };
}
