import { afterEach, describe, expect, it } from 'vitest';
import { PRUNE_MS } from './recorder.ts';
import { recorder, tempDir } from './timeline.testkit.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const gpu = (index: number, util: number, power: number) => ({
  index,
  uuid: null,
  model: null,
  util,
  temp: 60,
  power,
  fbUsed: 1000,
  fbFree: 1000,
  xid: null,
  xidCounts: null,
});

describe('telemetry read back over short and long ranges', () => {
  it('gives the same node figures from minute samples (1 h) and from the per-node aggregates (30 d)', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const { rec, clock } = recorder(dir);
    cleanups.push(() => rec.stop());
    const t0 = clock.now();
    // Two hours of two GPUs a minute; the retention folds the closed 15-minute buckets as it goes.
    for (let m = 0; m < 120; m++) {
      rec.telemetry({
        context: 'lab',
        node: 'n1',
        at: clock.now(),
        gpus: [gpu(0, 20, 100), gpu(1, 60, 200)],
      });
      clock.advance(60_000);
    }
    clock.advance(PRUNE_MS);
    const now = clock.now();
    const short = rec.read({ context: 'lab', from: now - 3_600_000, to: now });
    const long = rec.read({ context: 'lab', from: now - 30 * 86_400_000, to: now });
    for (const view of [short, long]) {
      expect(view.telemetry.length).toBeGreaterThan(0);
      for (const p of view.telemetry)
        expect(p).toMatchObject({
          node: 'n1',
          gpus: 2,
          util: { min: 20, avg: 40, max: 60 },
          power: { min: 300, avg: 300, max: 300 },
        });
    }
    // The long range's points are its 2-hour buckets, all from the aggregates but the open one.
    expect(long.telemetry.length).toBeLessThanOrEqual(2);
    expect(long.telemetry[0]?.at).toBeLessThanOrEqual(t0);
  });
});
