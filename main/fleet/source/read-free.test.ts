/** The controller's free_gpus as hostile input: valid summaries kept, anything else unknown (never 0 free). */
import { describe, expect, it } from 'vitest';
import { readFreeSummary } from './read-free.ts';

const product = {
  label: 'A30 MIG 1g.6gb',
  product: 'NVIDIA-A30-MIG-1g.6gb',
  kind: 'mig',
  profile: '1g.6gb',
  nodes: 1,
  capacity: 4,
  allocatable: 4,
  in_use: 1,
  free: 3,
  max_free_on_one_node: 3,
};
const UNKNOWN = { state: 'unknown', reason: 'error', free_total: null, products: [], pending: 0 };

describe('readFreeSummary', () => {
  it('keeps a valid summary; absent nulls (write-back leaves them out) read as null', () => {
    const { profile: _p, ...noProfile } = product;
    expect(readFreeSummary({ state: 'known', free_total: 3, products: [noProfile], pending: 1 })).toEqual({
      state: 'known',
      reason: null,
      free_total: 3,
      products: [{ ...product, profile: null }],
      pending: 1,
    });
    expect(readFreeSummary(undefined)).toBeUndefined();
    expect(readFreeSummary({ state: 'unknown', reason: 'forbidden', products: [] })).toMatchObject({
      state: 'unknown',
      reason: 'forbidden',
      free_total: null,
    });
  });

  it.each([
    ['not an object', 'x'],
    ['an unknown state', { state: 'all-free', products: [] }],
    ['a total that is not the sum', { state: 'known', free_total: 99, products: [product] }],
    [
      'free above allocatable',
      { state: 'known', free_total: 9, products: [{ ...product, free: 9, max_free_on_one_node: 9 }] },
    ],
    ['a negative count', { state: 'known', free_total: 3, products: [{ ...product, nodes: -1 }] }],
    ['an unknown kind', { state: 'known', free_total: 3, products: [{ ...product, kind: 'magic' }] }],
    [
      'too many products',
      {
        state: 'known',
        free_total: 0,
        products: Array(65).fill({ ...product, free: 0, max_free_on_one_node: 0 }),
      },
    ],
  ])('%s reads as unknown', (_name, raw) => {
    expect(readFreeSummary(raw)).toEqual(UNKNOWN);
  });

  it('texts go through the text gate', () => {
    const r = readFreeSummary({
      state: 'known',
      free_total: 3,
      products: [{ ...product, label: 'A30\u001b[31m\nevil' }],
      pending: 0,
    });
    const label = r?.products[0]?.label ?? '';
    expect([label.includes('\u001b'), label.includes('\n')]).toEqual([false, false]);
    expect(label).toContain('A30');
  });
});
