import { describe, expect, it } from 'vitest';
import { backoffStep } from './backoff.ts';

describe('backoffStep: the one formula behind every retry', () => {
  it('starts at initialMs, multiplies by factor, and caps at maxMs', () => {
    const s = { initialMs: 500, maxMs: 30_000, factor: 2 };
    expect([0, 1, 2, 3, 6, 7, 1000].map((k) => backoffStep(s, k))).toEqual([
      500, 1000, 2000, 4000, 30_000, 30_000, 30_000,
    ]);
    expect(backoffStep(s, -3)).toBe(500);
    expect(Number.isFinite(backoffStep({ initialMs: 1, maxMs: Number.MAX_VALUE, factor: 10 }, 10_000))).toBe(
      true,
    );
  });
});
