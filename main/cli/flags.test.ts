import { describe, expect, it } from 'vitest';
import { parseDuration } from './flags.ts';

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['250ms', 250],
    ['1.5m', 90_000],
    ['24h', 86_400_000],
  ])('%s → %d ms', (v, ms) => {
    expect(parseDuration(v, '--hold-down')).toBe(ms);
  });

  it('refuses a duration over 24h (Node fires a timer over 2^31-1 ms after 1 ms), with a sentence', () => {
    expect(() => parseDuration('600h', '--retry-period')).toThrow(
      'duration "600h" for --retry-period is longer than 24h, the longest it may be',
    );
    expect(() => parseDuration('86400001ms', '--hold-down')).toThrow(/longer than 24h/);
  });
});
