import type { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openWriter } from './open.ts';
import { aggregatedTo, downsample, prune, RAW_KEEP_MS, usedBytes, vacuumIfWorth } from './retention.ts';
import { tempDir } from './timeline.testkit.ts';

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 29, 12);

function db(): DatabaseSync {
  const t = tempDir();
  const opened = openWriter(t.dir, { now: NOW });
  if (!opened.ok) throw new Error(opened.fault.reason);
  cleanup = () => {
    opened.handle.db.close();
    opened.handle.lock.close();
    t.cleanup();
  };
  return opened.handle.db;
}

const sample = (d: DatabaseSync, at: number, util: number, node = 'n', gpu = 0) =>
  d
    .prepare(
      'INSERT INTO samples (ctx, node, gpu, at, util, temp, power, mem, xid) VALUES (?, ?, ?, ?, ?, 50, 100, 10, NULL)',
    )
    .run('lab', node, gpu, at, util);

describe('retention', () => {
  it('folds each closed 15-minute bucket into min/avg/max once, and keeps minute samples for 24 h', () => {
    const d = db();
    const old = Math.floor((NOW - RAW_KEEP_MS - 3_600_000) / 900_000) * 900_000;
    for (const [i, u] of [10, 20, 90].entries()) sample(d, old + i * 60_000, u);
    sample(d, NOW - 60_000, 5);
    // Still open: folded by a later pass.
    sample(d, NOW + 60_000, 7);
    expect(downsample(d, NOW)).toBe(3);
    const aggs = 'SELECT at, n, util_min, util_avg, util_max FROM aggregates ORDER BY at';
    expect(d.prepare(aggs).all()).toEqual([
      { at: old, n: 3, util_min: 10, util_avg: 40, util_max: 90 },
      { at: NOW - 900_000, n: 1, util_min: 5, util_avg: 5, util_max: 5 },
    ]);
    expect(d.prepare('SELECT count(*) AS n FROM samples').get()).toEqual({ n: 2 });
    expect(aggregatedTo(d)).toBe(NOW);
    // A second pass in the same bucket folds nothing twice.
    expect(downsample(d, NOW + 120_000)).toBe(0);
    expect(d.prepare(aggs).all()).toHaveLength(2);
    expect(downsample(d, NOW + 900_000)).toBe(0);
    expect(d.prepare(aggs).all()).toContainEqual({ at: NOW, n: 1, util_min: 7, util_avg: 7, util_max: 7 });
  });

  it('deletes rows past the retention, then the oldest days past the size cap', () => {
    const d = db();
    const count = d.prepare('INSERT INTO counts (ctx, at, ready, total, gpus) VALUES (?, ?, 1, 1, 1)');
    count.run('lab', NOW - 40 * DAY);
    const filler = d.prepare(
      'INSERT INTO changes (ctx, node, at, kind, f, t, reason, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (let day = 20; day >= 1; day--)
      for (let i = 0; i < 200; i++)
        filler.run('lab', `n${i}`, NOW - day * DAY, 'ready', 'Ready', 'NotReady', 'r', 'm'.repeat(200));
    const r1 = prune(d, NOW, 30, 1e9);
    expect(r1).toEqual({ deleted: 1, capped: 0 });
    const size = usedBytes(d);
    const r2 = prune(d, NOW, 30, size / 2);
    expect(r2.capped).toBeGreaterThan(0);
    expect(usedBytes(d)).toBeLessThanOrEqual(size / 2);
    // The newest days stay; the oldest went first.
    const { first } = d.prepare('SELECT min(at) AS first FROM changes').get() as { first: number };
    expect(first).toBeGreaterThan(NOW - 20 * DAY);
    expect(vacuumIfWorth(d)).toBe(true);
  });
});
