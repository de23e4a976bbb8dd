/** A message per node, worded once per distinct other values: the same words as one call per node. */
import { describe, expect, it } from 'vitest';
import type { MessageKey, MessageVars } from './catalog-types.ts';
import { LOCALES } from './locales.ts';
import { NODE_STAND_IN, nodeLines } from './node-lines.ts';
import { CATALOGS, type Translator, translator } from './translator.ts';

/** The translator, counting its t() calls. */
function counting(tr: Translator): { tr: Translator; calls: () => number } {
  let n = 0;
  const t = (key: MessageKey, vars?: MessageVars) => {
    n++;
    return tr.t(key, vars);
  };
  return { tr: { ...tr, t }, calls: () => n };
}

const lines = [
  { node: 'gpu-a', allocatable: 6, capacity: 8 },
  { node: 'gpu-$&-b', allocatable: 6, capacity: 8 },
  { node: 'gpu-{{node}}', allocatable: 1, capacity: 1 },
  { node: "gpu-$1-$'", allocatable: 6, capacity: 8 },
  { node: 'gpu-e', allocatable: 0, capacity: 8 },
  { node: 'gpu-f', allocatable: 1, capacity: 1 },
];
const withdrawnVars = (l: (typeof lines)[number]) => ({ allocatable: l.allocatable, count: l.capacity });

function strings(o: object): string[] {
  return Object.values(o).flatMap((v) => (typeof v === 'string' ? [v] : strings(v as object)));
}

describe('nodeLines', () => {
  it.each(LOCALES)(
    '%s: the same words as tr.t per node, names with $ patterns and braces as written',
    (l) => {
      const tr = translator(l);
      const one = lines.map((x) => tr.t('alert.withdrawn.line', { ...withdrawnVars(x), node: x.node }));
      expect(nodeLines(tr, 'alert.withdrawn.line', lines, withdrawnVars)).toEqual(one);
      const down = lines.map((x, i) => ({
        node: x.node,
        reason: i % 2 ? 'not Ready' : 'kubelet $& stopped',
      }));
      expect(nodeLines(tr, 'alert.reason', down, (d) => ({ reason: d.reason }))).toEqual(
        down.map((d) => tr.t('alert.reason', d)),
      );
    },
  );

  it('asks i18next once per distinct set of the other values, not once per node', () => {
    const { tr, calls } = counting(translator('en'));
    const many = Array.from({ length: 500 }, (_, i) => ({
      node: `n-${i}`,
      allocatable: i % 2 ? 6 : 7,
      capacity: 8,
    }));
    const out = nodeLines(tr, 'alert.withdrawn.line', many, withdrawnVars);
    expect(calls()).toBe(2);
    expect(out[499]).toBe('n-499 offers 6 of its 8 GPUs.');
    expect(out[0]).toBe('n-0 offers 7 of its 8 GPUs.');
  });

  it('a value holding the stand-in is worded on its own, not cut at it', () => {
    const tr = translator('en');
    const d = [{ node: 'gpu-a', reason: `odd${NODE_STAND_IN}reason` }];
    expect(nodeLines(tr, 'alert.reason', d, (x) => ({ reason: x.reason }))).toEqual([
      tr.t('alert.reason', { node: 'gpu-a', reason: d[0]?.reason ?? '' }),
    ]);
  });

  it('no catalog message holds the stand-in', () => {
    for (const c of Object.values(CATALOGS))
      expect(strings(c).filter((s) => s.includes(NODE_STAND_IN))).toEqual([]);
  });
});
