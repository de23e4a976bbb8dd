import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { INJECTED_CLOCK, injectedClock } from './injected-clock.ts';

afterEach(() => {
  Reflect.deleteProperty(globalThis, INJECTED_CLOCK);
});

describe('injectedClock', () => {
  it('is undefined when nothing is injected', () => {
    expect(injectedClock()).toBeUndefined();
  });

  it('returns a complete Clock', () => {
    const clock = new ManualClock();
    Reflect.set(globalThis, INJECTED_CLOCK, clock);
    expect(injectedClock()).toBe(clock);
  });

  it('refuses an object missing one of the Clock methods (sleep too: awaited waits use it)', () => {
    for (const missing of ['now', 'setTimeout', 'clearTimeout', 'sleep']) {
      const clock = new ManualClock();
      const partial = {
        now: () => clock.now(),
        setTimeout: (fn: () => void, ms: number) => clock.setTimeout(fn, ms),
        clearTimeout: (h: unknown) => clock.clearTimeout(h),
        sleep: (ms: number) => clock.sleep(ms),
      };
      Reflect.deleteProperty(partial, missing);
      Reflect.set(globalThis, INJECTED_CLOCK, partial);
      expect(injectedClock(), missing).toBeUndefined();
    }
  });
});
