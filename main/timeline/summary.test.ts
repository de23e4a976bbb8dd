import { describe, expect, it } from 'vitest';
import { unionMs } from './summary.ts';

describe('unionMs', () => {
  it('counts overlapping outages once and clips them to the range', () => {
    expect(
      unionMs(
        [
          { from: 0, to: 20 },
          { from: 10, to: 30 },
          { from: 50, to: null },
          { from: -10, to: 5 },
        ],
        2,
        60,
      ),
    ).toBe(28 + 10);
  });
});
