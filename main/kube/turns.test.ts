/** One waiter per event-loop turn, across every caller, in the order they asked. */
import { describe, expect, it } from 'vitest';
import { sharedTurn } from './turns.ts';

/** Counts event-loop turns (one setImmediate per turn) until stopped. */
function turnCounter(): { now: () => number; stop: () => void } {
  let n = 0;
  let on = true;
  const bump = () => {
    n++;
    if (on) setImmediate(bump);
  };
  setImmediate(bump);
  return { now: () => n, stop: () => (on = false) };
}

describe('sharedTurn', () => {
  it('lets waiters go one per turn, in order, never two in one turn', async () => {
    const turns = turnCounter();
    const at: [string, number][] = [];
    const worker = async (name: string, times: number) => {
      for (let i = 0; i < times; i++) {
        await sharedTurn();
        at.push([name, turns.now()]);
      }
    };
    // Three "contexts" yielding at once, as three first builds or three lists would.
    await Promise.all([worker('a', 3), worker('b', 3), worker('c', 3)]);
    turns.stop();
    expect(at.map(([n]) => n).join('')).toBe('abcabcabc');
    const t = at.map(([, n]) => n);
    expect(new Set(t).size).toBe(t.length);
    expect(t.every((x, i) => i === 0 || x > (t[i - 1] ?? x))).toBe(true);
  });

  it('never resolves in the caller’s own turn', async () => {
    let released = false;
    const p = sharedTurn().then(() => {
      released = true;
    });
    await Promise.resolve();
    expect(released).toBe(false);
    await p;
    expect(released).toBe(true);
  });
});
