import { describe, expect, it } from 'vitest';
import { MAX_GAP_MS, wattHours } from './energy.ts';

describe('wattHours', () => {
  it('integrates the mean of two readings over the time between them', () => {
    expect(wattHours({ at: 0, watts: 100 }, { at: 60_000, watts: 300 })).toBeCloseTo((200 * 60) / 3600);
  });
  it('integrates nothing for a first reading, a gap too long or a reading out of order', () => {
    expect(wattHours(null, { at: 1, watts: 100 })).toBe(0);
    expect(wattHours({ at: 0, watts: 100 }, { at: MAX_GAP_MS + 1, watts: 100 })).toBe(0);
    expect(wattHours({ at: 10, watts: 100 }, { at: 5, watts: 100 })).toBe(0);
  });
});
