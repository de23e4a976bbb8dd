/**
 * Opening the timeline database in the app's data folder: the writer (the engine host: WAL, the schema
 * migrated, a lock no second writer can take) and readers (the CLI, read-only, beside a running app).
 * A damaged file is moved aside with a notice and a fresh one started; every other failure is a
 * TimelineFault the recorder shows as "not recording: …" and retries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { classifyFault, type TimelineFault } from './faults.ts';
import { migrateTimeline, NewerTimelineError, SCHEMA_VERSION } from './migrations.ts';

export const TIMELINE_FILE = 'timeline.db';
/** Held with an exclusive SQLite lock while a process writes: the OS drops it when that process dies. */
export const WRITER_LOCK_FILE = 'timeline.writer-lock';
export const BUSY_SENTENCE =
  'Another GPU Fleet process is recording the timeline; this one shows it but does not write it.';

export interface WriterHandle {
  db: DatabaseSync;
  lock: DatabaseSync;
  /** Set when a damaged file was moved aside: the sentence the user is shown once. */
  notice: string | null;
}

export type WriterOpen = { ok: true; handle: WriterHandle } | { ok: false; fault: TimelineFault };

export interface OpenOptions {
  /** Stamp for a moved-aside file's name. */
  now: number;
  /** A write met a damaged file: move it aside even if it still opens. */
  moveAside?: boolean;
  /** Tests: open the database file read-only, so every write meets SQLite's own refusal. */
  readOnlyFile?: boolean;
  /** Tests: cap the file at this many pages, so a write past it meets SQLite's own "disk is full". */
  maxPages?: number;
}

function fault(error: unknown): TimelineFault {
  if (error instanceof NewerTimelineError) return { kind: 'newer', reason: error.message };
  return classifyFault(error);
}

function takeLock(dir: string): DatabaseSync {
  const lock = new DatabaseSync(path.join(dir, WRITER_LOCK_FILE), { timeout: 0 });
  try {
    // In exclusive locking mode the lock taken by the first write is kept until the connection closes.
    lock.exec(
      'PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS writer (x INTEGER); COMMIT;',
    );
    return lock;
  } catch (error) {
    lock.close();
    throw error;
  }
}

function openDb(file: string, readOnly: boolean, maxPages?: number): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: 2_000, readOnly });
  try {
    if (maxPages !== undefined) db.exec(`PRAGMA max_page_count = ${Math.floor(maxPages)}`);
    if (!readOnly) {
      // auto_vacuum must be chosen before the first table exists; it is a no-op on an existing file.
      db.exec('PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    }
    migrateTimeline(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Renames the damaged file (and its WAL) aside; returns the new name (file name only). */
function moveAside(file: string, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  const aside = `${file.replace(/\.db$/, '')}-damaged-${stamp}.db`;
  fs.renameSync(file, aside);
  for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  return path.basename(aside);
}

export function openWriter(dir: string, options: OpenOptions): WriterOpen {
  let lock: DatabaseSync;
  try {
    fs.mkdirSync(dir, { recursive: true });
    lock = takeLock(dir);
  } catch (error) {
    const f = fault(error);
    return { ok: false, fault: f.kind === 'busy' ? { kind: 'busy', reason: BUSY_SENTENCE } : f };
  }
  const file = path.join(dir, TIMELINE_FILE);
  const readOnly = options.readOnlyFile === true;
  if (!(options.moveAside && fs.existsSync(file))) {
    try {
      return { ok: true, handle: { db: openDb(file, readOnly, options.maxPages), lock, notice: null } };
    } catch (error) {
      const f = fault(error);
      if (f.kind !== 'corrupt') {
        lock.close();
        return { ok: false, fault: f };
      }
    }
  }
  try {
    const aside = moveAside(file, options.now);
    const notice = `The timeline file was damaged; it was moved aside as ${aside} and a new timeline was started.`;
    return { ok: true, handle: { db: openDb(file, readOnly, options.maxPages), lock, notice } };
  } catch (again) {
    lock.close();
    return { ok: false, fault: fault(again) };
  }
}

export type ReaderOpen = { ok: true; db: DatabaseSync } | { ok: false; message: string };

/** Read-only, for the CLI and tools: works while the app writes; never creates or migrates the file. */
export function openReader(dir: string): ReaderOpen {
  const file = path.join(dir, TIMELINE_FILE);
  if (!fs.existsSync(file))
    return {
      ok: false,
      message: 'No timeline has been recorded yet: the GPU Fleet app records it while it runs.',
    };
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(file, { readOnly: true, timeout: 2_000 });
    const row = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
    const v = row?.user_version ?? 0;
    if (v > SCHEMA_VERSION)
      throw new NewerTimelineError(`the timeline was written by a newer GPU Fleet (schema ${v})`);
    if (v < SCHEMA_VERSION) throw new NewerTimelineError('the timeline has not been set up by the app yet');
    return { ok: true, db };
  } catch (error) {
    db?.close();
    return { ok: false, message: `The timeline cannot be read: ${fault(error).reason}.` };
  }
}
