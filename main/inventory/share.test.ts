// The pool behind the shared node facts (bench row 3): same key → the first value, frozen; bounded.
import { describe, expect, it } from 'vitest';
import { entryKey, keyOf, MAX_SHARED, MAX_SHARED_KEY, nullableKey, sharePool } from './share.ts';

describe('sharePool', () => {
  it('gives the first value for an equal key, another for a different key', () => {
    const pool = sharePool<{ n: number }>();
    const a = pool.share('1', { n: 1 });
    expect(pool.share('1', { n: 1 })).toBe(a);
    const b = pool.share('2', { n: 2 });
    expect(b).not.toBe(a);
    expect(b).toEqual({ n: 2 });
  });

  it('freezes what it returns, pooled or not: a writer throws instead of changing other nodes', () => {
    const pool = sharePool<{ n: number }>();
    const pooled = pool.share('k', { n: 1 });
    expect(() => {
      (pooled as { n: number }).n = 2;
    }).toThrow(TypeError);
    const long = pool.share('x'.repeat(MAX_SHARED_KEY + 1), { n: 3 });
    expect(Object.isFrozen(long)).toBe(true);
    expect(pool.size).toBe(1);
  });

  it('freezes deep with the freeze it is given', () => {
    const pool = sharePool<{ list: { v: number }[] }>((x) => {
      for (const e of x.list) Object.freeze(e);
      Object.freeze(x.list);
      Object.freeze(x);
    });
    const got = pool.share('k', { list: [{ v: 1 }] });
    expect(() => {
      (got.list as { v: number }[]).push({ v: 2 });
    }).toThrow(TypeError);
    expect(() => {
      (got.list[0] as { v: number }).v = 5;
    }).toThrow(TypeError);
  });

  it('holds at most MAX_SHARED values, starting over when full (a miss costs memory, not truth)', () => {
    const pool = sharePool<{ i: number }>();
    for (let i = 0; i < MAX_SHARED + 10; i++) pool.share(String(i), { i });
    expect(pool.size).toBeLessThanOrEqual(MAX_SHARED);
    const again = pool.share('5', { i: 5 });
    expect(again).toEqual({ i: 5 });
  });
});

describe('keys', () => {
  it('tell apart maps whose joined text is the same', () => {
    expect(keyOf({ a: 'bc' })).not.toBe(keyOf({ ab: 'c' }));
    expect(keyOf({ a: '1:b' })).not.toBe(keyOf({ a: '1', b: '' }));
    expect(keyOf({ a: 'b' })).toBe(keyOf({ a: 'b' }));
  });

  it('tell null from every text', () => {
    expect(nullableKey(null)).not.toBe(nullableKey('-'));
    expect(nullableKey(null)).not.toBe(nullableKey(''));
    expect(nullableKey('x')).toBe(entryKey('x'));
  });
});
