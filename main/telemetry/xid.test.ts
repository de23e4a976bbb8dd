/** Which XIDs are news, by the count metric and by the sticky last-XID gauge; application XIDs; odd values. */
import { describe, expect, it } from 'vitest';
import { isApplicationXid, isBenignXid, newXids, wholeXid, type XidSeen } from './xid.ts';

const last = (x: number | null): XidSeen => ({ last: x, counts: null });
const counts = (c: Record<string, number>, x: number | null = null): XidSeen => ({ last: x, counts: c });

describe('newXids', () => {
  it.each([
    ['first sight of a last XID: where it stands, not news', undefined, last(79), []],
    ['the same last XID again: not news (a repeat cannot be seen)', last(79), last(79), []],
    ['a changed last XID', last(79), last(48), [48]],
    ['from none to one', last(null), last(79), [79]],
    ['back to none', last(79), last(null), []],
    [
      'first sight of counts in the window: news (the window is recent)',
      undefined,
      counts({ '79': 1 }),
      [79],
    ],
    ['a count that stays', counts({ '79': 1 }), counts({ '79': 1 }), []],
    ['the same XID again: its count rises', counts({ '79': 1 }), counts({ '79': 2 }), [79]],
    ['a count that falls as the window moves', counts({ '79': 2 }), counts({ '79': 1 }), []],
    ['several new at once, in order', counts({}), counts({ '94': 1, '48': 1 }), [48, 94]],
    ['counts win over the sticky gauge', counts({}, 79), counts({}, 48), []],
    ['the count metric appears: judged by it', last(79), counts({ '79': 1 }, 79), [79]],
  ] as const)('%s', (_name, prev, now, expected) => {
    expect(newXids(prev, now)).toEqual(expected);
  });
});

describe('XID codes', () => {
  it('13, 31, 43 and 45 are application errors; 63 is benign but not the application’s', () => {
    expect([13, 31, 43, 45].every(isApplicationXid)).toBe(true);
    expect([isApplicationXid(63), isBenignXid(63), isApplicationXid(79), isBenignXid(79)]).toEqual([
      false,
      true,
      false,
      false,
    ]);
  });

  it.each([
    [79, 79],
    [1, 1],
    [0, null],
    [-1, null],
    [3.5, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    [70_000, null],
  ])('wholeXid(%s) is %s', (value, expected) => {
    expect(wholeXid(value)).toBe(expected);
  });
});
