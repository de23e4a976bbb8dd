import { describe, expect, it } from 'vitest';
import { asRecord, isObj, str } from './json-guards.ts';

describe('json guards', () => {
  it('isObj: only objects that are neither null nor arrays', () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isObj)).toEqual([true, true, true]);
    expect([null, undefined, [], [1], 'x', 1, true].map(isObj)).toEqual(Array(7).fill(false));
  });
  it('asRecord: the object itself, else an empty one', () => {
    const o = { a: 1 };
    expect(asRecord(o)).toBe(o);
    for (const v of [null, undefined, [1], 'x', 0]) expect(asRecord(v)).toEqual({});
  });
  it('str: strings (the empty one too), else null', () => {
    expect([str('a'), str(''), str(1), str(null), str(['a'])]).toEqual(['a', '', null, null, null]);
  });
});
