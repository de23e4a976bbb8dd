import { expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { Throttle } from './throttle.ts';

it('runs the first request at once and folds a burst into one trailing run', () => {
  const clock = new ManualClock(1_000);
  const runs: number[] = [];
  const t = new Throttle(clock, 100, () => runs.push(clock.now()));
  t.request();
  expect(runs).toEqual([1_000]);
  clock.advance(10);
  t.request();
  t.request();
  clock.advance(50);
  t.request();
  expect(runs).toEqual([1_000]);
  clock.advance(40);
  expect(runs).toEqual([1_000, 1_100]);
  clock.advance(500);
  t.request();
  expect(runs).toEqual([1_000, 1_100, 1_600]);
});

it('cancel drops a pending trailing run and leaves no timer', () => {
  const clock = new ManualClock(0);
  const runs: number[] = [];
  const t = new Throttle(clock, 100, () => runs.push(clock.now()));
  t.request();
  t.request();
  t.cancel();
  clock.advance(1_000);
  expect(runs).toEqual([0]);
  expect(clock.pending).toBe(0);
});
