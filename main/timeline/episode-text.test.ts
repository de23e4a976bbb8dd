import { describe, expect, it } from 'vitest';
import { durationText, episodeText } from './episode-text.ts';

describe('durationText', () => {
  it('words a length as the window does', () => {
    expect(durationText(40_000)).toBe('40 s');
    expect(durationText(59_400)).toBe('59 s');
    expect(durationText(17 * 60_000)).toBe('17 min');
    expect(durationText(68 * 60_000)).toBe('1 h 8 min');
    expect(durationText(3 * 3_600_000 + 8 * 60_000)).toBe('3 h 8 min');
    expect(durationText(50 * 3_600_000)).toBe('2 d 2 h');
  });

  it('a 40 s episode reads 40 s, not 1 min', () => {
    const from = Date.UTC(2026, 11, 7, 1, 14, 0);
    const line = episodeText(
      {
        kind: 'not-ready',
        node: 'lab-l4',
        from,
        to: from + 40_000,
        state: 'NotReady',
        reason: 'KubeletNotReady',
        message: 'PLEG is not healthy',
        events: 0,
        alerts: 0,
      },
      from + 60_000,
    );
    expect(line).toBe('lab-l4 NotReady 2026-12-07 01:14–01:14 (40 s): PLEG is not healthy');
  });
});
