import { describe, expect, it } from 'vitest';
import { linePath, niceMax, pointAt, stepPath, timeScale, timeTicks } from './timeline-chart.ts';

const box = { left: 0, top: 0, width: 100, height: 10 };

describe('timeline chart geometry', () => {
  it('runs the time axis from the start of the range to its end, and holds the step line to the end', () => {
    const s = timeScale(1000, 2000, box);
    expect([s.x(1000), s.x(1500), s.x(2000), s.x(5000)]).toEqual([0, 50, 100, 100]);
    expect(s.at(25)).toBe(1250);
    const d = stepPath(
      [
        { at: 1000, v: 2 },
        { at: 1500, v: 1 },
      ],
      (p) => p.v,
      s,
      box,
      2,
      2000,
    );
    expect(d).toBe('M0.0,0.0H50.0V5.0H100.0');
  });

  it('breaks a telemetry line at a missing value or a long gap', () => {
    const s = timeScale(0, 100, box);
    const pts = [
      { at: 0, v: 1 },
      { at: 10, v: 1 },
      { at: 20, v: null },
      { at: 30, v: 1 },
      { at: 90, v: 1 },
    ];
    expect(linePath(pts, (p) => p.v, s, box, 1, 20)).toBe('M0.0,0.0L10.0,0.0M30.0,0.0M90.0,0.0');
  });

  it('finds the point the step line shows under the pointer, ticks and a nice axis maximum', () => {
    const pts = [{ at: 10 }, { at: 20 }, { at: 30 }];
    expect([pointAt(pts, 5), pointAt(pts, 10), pointAt(pts, 25), pointAt(pts, 99)]).toEqual([
      null,
      pts[0],
      pts[1],
      pts[2],
    ]);
    expect(timeTicks(0, 100, 3)).toEqual([0, 50, 100]);
    expect([niceMax(0), niceMax(3), niceMax(70), niceMax(101)]).toEqual([1, 5, 100, 200]);
  });
});
