/**
 * The one way to give the desktop app a virtual clock: the desktop tests load the built bundle under
 * Node (test/electron/load-main.ts), so they cannot pass arguments, and put a Clock under this global
 * symbol before loading it. The app itself never sets it and then runs on systemClock.
 */
import type { Clock } from './clock.ts';

export const INJECTED_CLOCK = Symbol.for('gpu-fleet.injected-clock');

/** The injected clock, if one with the Clock methods is there; undefined otherwise. */
export function injectedClock(): Clock | undefined {
  const c: unknown = Reflect.get(globalThis, INJECTED_CLOCK);
  if (typeof c !== 'object' || c === null) return undefined;
  const ok = ['now', 'setTimeout', 'clearTimeout', 'sleep'].every(
    (k) => typeof Reflect.get(c, k) === 'function',
  );
  return ok ? (c as Clock) : undefined;
}
