/** Toleration matching as the scheduler does it, table-driven. */
import { describe, expect, it } from 'vitest';
import { type Taint, type Toleration, taintText, tolerates, untolerated } from './tolerations.ts';

const taint: Taint = { key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' };
const t = (o: Partial<Toleration>): Toleration => ({
  key: null,
  operator: 'Equal',
  value: null,
  effect: null,
  ...o,
});

describe('tolerates', () => {
  it.each([
    ['Exists with an empty key tolerates everything', t({ operator: 'Exists' }), true],
    [
      'Exists with an empty key and another effect does not',
      t({ operator: 'Exists', effect: 'NoExecute' }),
      false,
    ],
    ['Exists on the key', t({ key: 'nvidia.com/gpu', operator: 'Exists' }), true],
    ['Exists on another key', t({ key: 'dedicated', operator: 'Exists' }), false],
    ['Equal with the value', t({ key: 'nvidia.com/gpu', value: 'present' }), true],
    ['Equal with another value', t({ key: 'nvidia.com/gpu', value: 'absent' }), false],
    [
      'an empty effect matches every effect',
      t({ key: 'nvidia.com/gpu', value: 'present', effect: null }),
      true,
    ],
    ['the same effect', t({ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }), true],
    ['another effect', t({ key: 'nvidia.com/gpu', value: 'present', effect: 'NoExecute' }), false],
    ['Equal with an empty key does not tolerate a keyed taint', t({ value: 'present' }), false],
  ])('%s', (_name, toleration, want) => {
    expect(tolerates(toleration, taint)).toBe(want);
  });

  it('Equal with no value matches a taint without a value', () => {
    expect(tolerates(t({ key: 'dedicated' }), { key: 'dedicated', value: null, effect: 'NoSchedule' })).toBe(
      true,
    );
  });

  it('untolerated lists only what no toleration covers', () => {
    const taints = [
      { key: 'a', value: null, effect: 'NoSchedule' as const },
      { key: 'b', value: 'x', effect: 'NoExecute' as const },
    ];
    expect(untolerated(taints, [t({ key: 'a', operator: 'Exists' })])).toEqual([taints[1]]);
    expect(taintText(taints[1] as Taint)).toBe('b=x:NoExecute');
    expect(taintText(taints[0] as Taint)).toBe('a:NoSchedule');
  });
});
