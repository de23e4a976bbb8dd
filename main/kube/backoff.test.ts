import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { Backoff } from './backoff.ts';

describe('Backoff', () => {
  it.each([
    { jitter: 'none' as const, random: 0.5, delays: [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000] },
    { jitter: 'equal' as const, random: 0, delays: [400, 800, 1600, 3200, 6400, 12800, 15000, 15000] },
    { jitter: 'equal' as const, random: 1, delays: [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000] },
    { jitter: 'full' as const, random: 0.5, delays: [400, 800, 1600, 3200, 6400, 12800, 15000, 15000] },
    { jitter: 'full' as const, random: 0, delays: [0, 0, 0, 0, 0, 0, 0, 0] },
  ])('$jitter jitter with random=$random', ({ jitter, random, delays }) => {
    const b = new Backoff(new ManualClock(), { jitter }, () => random);
    expect(delays.map(() => b.next())).toEqual(delays);
    expect(b.attempt).toBe(8);
  });

  it('is the 800 ms → 30 s ×2 policy by default', () => {
    const b = new Backoff(new ManualClock());
    expect(b.options).toEqual({
      initialMs: 800,
      maxMs: 30_000,
      factor: 2,
      jitter: 'equal',
      resetAfterMs: 120_000,
    });
  });

  it.each([
    { healthyFor: 119_999, expected: 3200 },
    { healthyFor: 120_000, expected: 800 },
  ])('after $healthyFor ms healthy the next delay is $expected', ({ healthyFor, expected }) => {
    const clock = new ManualClock();
    const b = new Backoff(clock, { jitter: 'none' });
    b.next();
    b.next();
    b.markHealthy();
    clock.advance(healthyFor);
    expect(b.next()).toBe(expected);
  });

  it('a failure clears the healthy mark, so short healthy spells do not add up', () => {
    const clock = new ManualClock();
    const b = new Backoff(clock, { jitter: 'none' });
    b.next();
    b.markHealthy();
    clock.advance(100_000);
    b.next();
    b.markHealthy();
    clock.advance(100_000);
    expect(b.next()).toBe(3200);
  });

  it('reset() starts over', () => {
    const b = new Backoff(new ManualClock(), { jitter: 'none' });
    b.next();
    b.next();
    b.reset();
    expect(b.next()).toBe(800);
  });
});
