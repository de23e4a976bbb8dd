/**
 * WAL checkpoints off the engine host's event loop. SQLite's automatic checkpoint runs inside the commit
 * that crosses 1,000 WAL pages: it copies them into the database file and syncs it, tens of
 * milliseconds on a busy disk, on whatever thread committed. The writer turns it off
 * (`wal_autocheckpoint = 0`) and this worker thread, with its own connection to the same file, runs a
 * PASSIVE checkpoint every few seconds instead: it never waits for the writer, and the writer never waits
 * for it (WAL lets a checkpoint run beside a write).
 *
 * The worker's code is a string (no separate file for the bundler to find): it only opens the file and
 * checkpoints; errors (a file moved aside, a full disk) are the writer's to report, so it swallows them.
 */
import { Worker } from 'node:worker_threads';

export const CHECKPOINT_MS = 5_000;

const CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
let db = null;
try {
  db = new DatabaseSync(workerData.file, { timeout: 0 });
} catch {}
const checkpoint = () => {
  try {
    const r = db?.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
    parentPort.postMessage(r ?? null);
  } catch {
    parentPort.postMessage(null);
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m === 'now') checkpoint();
  else if (m === 'stop') {
    clearInterval(timer);
    try { db?.close(); } catch {}
    parentPort.close();
  }
});
`;

/** What one checkpoint did, as SQLite says it (null: it could not run). */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export class Checkpointer {
  readonly #worker: Worker;
  #listeners: ((r: CheckpointResult | null) => void)[] = [];

  constructor(file: string, everyMs = CHECKPOINT_MS) {
    this.#worker = new Worker(CODE, { eval: true, workerData: { file, everyMs } });
    // The app leaving must not wait for it.
    this.#worker.unref();
    this.#worker.on('message', (m: unknown) => this.#answer(checkpointResult(m)));
    // A worker that cannot start (no threads left) leaves SQLite's WAL growing until the next open:
    // nothing is lost, and the writer still works; a checkpoint asked of it answers null.
    this.#worker.on('error', () => {});
    this.#worker.on('exit', () => {
      this.#gone = true;
      this.#answer(null);
    });
  }

  #gone = false;

  /**
   * Checkpoints now; resolves with what it did (tests, and the host before it exits). The worker is
   * unref'd, so while an answer is awaited it is held (ref) — else a caller with nothing else pending
   * would see the process exit before the answer.
   */
  now(): Promise<CheckpointResult | null> {
    if (this.#gone) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.#listeners.push(resolve);
      this.#worker.ref();
      this.#worker.postMessage('now');
    });
  }

  #answer(r: CheckpointResult | null): void {
    for (const l of this.#listeners.splice(0)) l(r);
    this.#worker.unref();
  }

  stop(): void {
    this.#worker.postMessage('stop');
  }
}

function checkpointResult(m: unknown): CheckpointResult | null {
  if (typeof m !== 'object' || m === null) return null;
  const r = m as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === 'number' ? v : Number.NaN);
  const out = { busy: n(r.busy), log: n(r.log), checkpointed: n(r.checkpointed) };
  return Number.isFinite(out.log) && Number.isFinite(out.checkpointed) ? out : null;
}
