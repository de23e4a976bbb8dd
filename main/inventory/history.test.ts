/** The bounded per-context history: change-only appends and thinning. */
import { describe, expect, it } from 'vitest';
import type { HistoryPoint } from '../../common/fleet.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { appendHistory } from './history.ts';

const inv = (ready: number, total = 4, gpus = 4): GpuInventoryStatus => ({
  observed_at: 'ignored',
  total_gpu_nodes: total,
  ready_gpu_nodes: ready,
  total_gpus: gpus,
  nodes: [],
});
const at = (i: number) => new Date(Date.UTC(2025, 5, 1) + i * 60_000).toISOString();

describe('appendHistory', () => {
  it('appends only when ready, total or GPUs change', () => {
    const h1 = appendHistory([], inv(4), at(0), 10);
    expect(h1).toEqual([{ at: at(0), ready: 4, total: 4, gpus: 4 }]);
    expect(appendHistory(h1, inv(4), at(1), 10)).toBe(h1);
    const h2 = appendHistory(h1, inv(3), at(2), 10);
    const h3 = appendHistory(h2, inv(3, 5), at(3), 10);
    const h4 = appendHistory(h3, inv(3, 5, 6), at(4), 10);
    expect(h4.map((p) => [p.ready, p.total, p.gpus])).toEqual([
      [4, 4, 4],
      [3, 4, 4],
      [3, 5, 4],
      [3, 5, 6],
    ]);
    expect(h1).toHaveLength(1);
  });

  it('stays within max under endless flapping, newest exact and the oldest kept', () => {
    let h: HistoryPoint[] = [];
    for (let i = 0; i < 2000; i++) {
      h = appendHistory(h, inv(i % 3), at(i), 50);
      expect(h.length).toBeLessThanOrEqual(50);
    }
    expect(h[0]?.at).toBe(at(0));
    expect(h.at(-1)).toEqual({ at: at(1999), ready: 1999 % 3, total: 4, gpus: 4 });
    expect(h.slice(-10).map((p) => p.at)).toEqual(Array.from({ length: 10 }, (_, k) => at(1990 + k)));
    const times = h.map((p) => p.at);
    expect([...times].sort()).toEqual(times);
    for (let i = 1; i < h.length; i++) expect(h[i]?.ready).not.toBe(h[i - 1]?.ready);
  });

  it('treats a max below 1 as 1', () => {
    const h = appendHistory(appendHistory([], inv(1), at(0), 0), inv(2), at(1), 0);
    expect(h).toEqual([{ at: at(1), ready: 2, total: 4, gpus: 4 }]);
  });
});
