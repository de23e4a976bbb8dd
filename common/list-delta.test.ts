import { describe, expect, it } from 'vitest';
import { applyList, DeltaMismatch, diffList, type ListOps } from './list-delta.ts';

interface Item {
  k: string;
  v: number;
}
const OPS: ListOps<Item, Item> = {
  key: (i) => i.k,
  changeKey: (i) => i.k,
  diff: (a, b) => (a.v === b.v ? null : b),
  apply: (_, b) => b,
};
const list = (...keys: string[]) => keys.map((k) => ({ k, v: 0 }));

describe('diffList', () => {
  it('sends added items at their index and no order while kept items keep theirs', () => {
    const prev = list('a', 'c', 'e');
    const next = [...list('a', 'b', 'c'), { k: 'e', v: 1 }, ...list('f')];
    const d = diffList(prev, next, OPS);
    expect(d).toEqual({
      changed: [{ k: 'e', v: 1 }],
      added: [
        { at: 1, item: { k: 'b', v: 0 } },
        { at: 4, item: { k: 'f', v: 0 } },
      ],
    });
    expect(applyList(prev, d ?? {}, OPS)).toEqual(next);
  });

  it('sends the whole key order when kept items move, and null for repeated keys', () => {
    const d = diffList(list('a', 'b', 'c'), list('c', 'a', 'b'), OPS);
    expect(d).toEqual({ order: ['c', 'a', 'b'] });
    expect(diffList(list('a', 'a'), list('a'), OPS)).toBeNull();
  });

  it('keys named like Object.prototype are keys like any other', () => {
    const prev = list('constructor', '__proto__');
    const next = [{ k: '__proto__', v: 1 }, ...list('toString')];
    const d = diffList(prev, next, OPS);
    expect(applyList(prev, d ?? {}, OPS)).toEqual(next);
  });
});

describe('applyList refuses a delta made from another list', () => {
  const cases: [string, Parameters<typeof applyList<Item, Item>>[1]][] = [
    ['a change of an unknown key', { changed: [{ k: 'zz', v: 1 }] }],
    ['a removal of an unknown key', { removed: ['zz'] }],
    ['an addition of a key already there', { added: [{ at: 0, item: { k: 'a', v: 0 } }] }],
    ['an addition past the end', { added: [{ at: 9, item: { k: 'x', v: 0 } }] }],
    [
      'additions out of order',
      {
        added: [
          { at: 1, item: { k: 'x', v: 0 } },
          { at: 0, item: { k: 'y', v: 0 } },
        ],
      },
    ],
    ['an order naming an unknown key', { order: ['a', 'zz'] }],
    ['an order that leaves a key out', { order: ['a'] }],
  ];
  for (const [what, delta] of cases)
    it(what, () => expect(() => applyList(list('a', 'b'), delta, OPS)).toThrow(DeltaMismatch));
});
