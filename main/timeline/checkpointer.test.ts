import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { Checkpointer } from './checkpointer.ts';
import { FLUSH_MS } from './recorder.ts';
import { inventory, node, recorder, tempDir } from './timeline.testkit.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

describe('WAL checkpoints in a worker thread', () => {
  it('the writer leaves them to the worker, which copies the WAL into the file', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const { rec, clock } = recorder(dir, new ManualClock(), { checkpointInWorker: { everyMs: 3_600_000 } });
    cleanups.push(() => rec.stop());
    const file = path.join(dir, 'timeline.db');
    const before = fs.statSync(file).size;
    // Well past SQLite's own threshold (1,000 pages): with it on, the commits would have checkpointed.
    for (let i = 0; i < 12; i++) {
      rec.inventory(
        'lab',
        inventory(
          Array.from({ length: 2000 }, (_, n) =>
            node({ name: `n${i}-${n}`, not_ready_message: 'x'.repeat(200) }),
          ),
        ),
      );
      rec.flushAll();
      clock.advance(FLUSH_MS);
    }
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(1000 * 4096);
    expect(fs.statSync(file).size).toBe(before);
    const done = await rec.checkpointNow();
    expect(done?.log).toBeGreaterThan(1000);
    expect(done?.checkpointed).toBe(done?.log);
    expect(fs.statSync(file).size).toBeGreaterThan(before);
  });

  it('a checkpoint asked of a worker that has ended answers null instead of waiting for ever', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    recorder(dir, new ManualClock()).rec.stop();
    const c = new Checkpointer(path.join(dir, 'timeline.db'));
    c.stop();
    const late = c.now();
    expect(await late).toBeNull();
    expect(await c.now()).toBeNull();
  });
});
