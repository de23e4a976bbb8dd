import { describe, expect, it } from 'vitest';
import { ManualClock } from './manual-clock.ts';

describe('ManualClock', () => {
  it('runs due timers in order and leaves later ones pending', () => {
    const clock = new ManualClock(1000);
    const ran: string[] = [];
    clock.setTimeout(() => ran.push('b'), 20);
    clock.setTimeout(() => ran.push('a'), 10);
    clock.setTimeout(() => ran.push('c'), 50);
    clock.advance(20);
    expect(ran).toEqual(['a', 'b']);
    expect(clock.now()).toBe(1020);
    expect(clock.pending).toBe(1);
  });

  it('runs timers scheduled by timers when they fall inside the step', () => {
    const clock = new ManualClock(0);
    const ran: number[] = [];
    clock.setTimeout(() => {
      ran.push(clock.now());
      clock.setTimeout(() => ran.push(clock.now()), 5);
    }, 5);
    clock.advance(10);
    expect(ran).toEqual([5, 10]);
  });

  it('does not run cleared timers', () => {
    const clock = new ManualClock(0);
    let ran = false;
    const h = clock.setTimeout(() => {
      ran = true;
    }, 1);
    clock.clearTimeout(h);
    clock.advance(5);
    expect(ran).toBe(false);
    expect(clock.pending).toBe(0);
  });
});
