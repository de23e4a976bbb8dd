import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { FLUSH_MS } from './recorder.ts';
import { recorder, tempDir } from './timeline.testkit.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

describe('free GPUs by product in the timeline', () => {
  it('records a product only when its figure changes, 0 when it is gone, and reads each as a line', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const { rec, clock } = recorder(dir);
    cleanups.push(() => rec.stop());
    const t0 = clock.now();
    rec.free('lab', [
      { label: 'A100 SXM4 40GB', free: 3 },
      { label: 'RTX 4090 (shared)', free: 2 },
    ]);
    clock.advance(10 * 60_000);
    // The same figures again (every snapshot passes them on): nothing new.
    rec.free('lab', [
      { label: 'A100 SXM4 40GB', free: 3 },
      { label: 'RTX 4090 (shared)', free: 2 },
    ]);
    clock.advance(10 * 60_000);
    rec.free('lab', [{ label: 'A100 SXM4 40GB', free: 1 }]);
    clock.advance(FLUSH_MS);
    rec.flushAll();
    const look = new DatabaseSync(path.join(dir, 'timeline.db'), { readOnly: true });
    cleanups.push(() => look.close());
    expect(look.prepare('SELECT product, free FROM free ORDER BY at, product').all()).toEqual([
      { product: 'A100 SXM4 40GB', free: 3 },
      { product: 'RTX 4090 (shared)', free: 2 },
      { product: 'A100 SXM4 40GB', free: 1 },
      { product: 'RTX 4090 (shared)', free: 0 },
    ]);
    const view = rec.read({ context: 'lab', from: t0, to: clock.now() });
    expect(view.free).toEqual([
      {
        product: 'A100 SXM4 40GB',
        points: [
          { at: t0, free: 3 },
          { at: t0 + 20 * 60_000, free: 1 },
        ],
      },
      {
        product: 'RTX 4090 (shared)',
        points: [
          { at: t0, free: 2 },
          { at: t0 + 20 * 60_000, free: 0 },
        ],
      },
    ]);
    // A later range begins with the figure each product had; one gone before it shows no line.
    const later = rec.read({ context: 'lab', from: clock.now(), to: clock.now() + 60_000 });
    expect(later.free).toEqual([{ product: 'A100 SXM4 40GB', points: [{ at: clock.now(), free: 1 }] }]);
    expect(rec.read({ context: 'lab', from: t0, to: clock.now(), node: 'n' }).free).toEqual([]);
  });
});
