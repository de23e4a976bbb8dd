import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS, systemClock } from './clock.ts';

describe('systemClock.setTimeout', () => {
  it('a wait longer than Node can time (2^31-1 ms) does not fire after 1 ms; a short one fires; both can be cleared', async () => {
    let long = 0;
    let short = 0;
    const a = systemClock.setTimeout(() => long++, MAX_TIMER_MS + 1);
    const b = systemClock.setTimeout(() => short++, 1);
    const c = systemClock.setTimeout(() => short++, 5);
    systemClock.clearTimeout(c);
    await new Promise((r) => setTimeout(r, 40));
    expect([long, short]).toEqual([0, 1]);
    systemClock.clearTimeout(a);
    systemClock.clearTimeout(b);
  });
});
