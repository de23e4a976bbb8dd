/**
 * updateRows (the node table's update after a delta) against a full selectNodes: for arbitrary lists, a
 * few entries replaced, added or removed (sharing the others, as applyDelta does), every filter, search
 * and sort, the rows it makes are exactly the rows a full sort makes, whenever it makes any — and it does
 * make them (the fast path is taken) unless two rows tie under the sort, which only case-folded equal names
 * can do here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GpuNodeEntry } from '../../common/inventory.ts';
import { largeNodes } from '../fixtures/large.ts';
import { type NodeFilter, type SortKey, selectNodes, updateRows } from './nodes.ts';

const RUNS = { seed: 20261216, numRuns: 300 };
const KEYS: SortKey[] = ['name', 'ready', 'product', 'count', 'memory', 'readiness', 'problems', 'cordoned'];
const FILTERS: NodeFilter[] = ['all', 'not-ready', 'unlabeled', 'problems'];

const entry: fc.Arbitrary<GpuNodeEntry> = fc.record({
  name: fc.constantFrom('gpu-1', 'gpu-01', 'GPU-1', 'gpu-2', 'a', 'B', 'constructor', '__proto__', 'gpu-10'),
  ready: fc.boolean(),
  product: fc.option(fc.constantFrom('NVIDIA-H100', 'nvidia-h100', 'A100'), { nil: null }),
  count: fc.nat(2),
  memory: fc.option(fc.constantFrom(40960, 81559), { nil: null }),
  workload: fc.option(fc.constantFrom('container', 'vm-passthrough'), { nil: null }),
  cordoned: fc.boolean(),
  problems: fc.array(fc.constant('p'), { maxLength: 2 }),
});

const edit = fc.tuple(fc.constantFrom('replace', 'add', 'remove'), fc.nat(), entry);

describe('updateRows', () => {
  it('makes exactly the rows selectNodes makes, and declines only on a tie', () => {
    let runs = 0;
    let taken = 0;
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { selector: (e) => e.name, maxLength: 9 }),
        fc.array(edit, { maxLength: 4 }),
        fc.constantFrom(...FILTERS),
        fc.constantFrom('', 'gpu', 'h100'),
        fc.constantFrom(...KEYS),
        fc.constantFrom('asc' as const, 'desc' as const),
        (prev, edits, filter, search, key, dir) => {
          runs++;
          const sort = { key, dir };
          const next = [...prev];
          for (const [kind, i, e] of edits) {
            const at = i % Math.max(1, next.length);
            if (kind === 'replace' && next[at]) next[at] = { ...e, name: next[at].name };
            else if (kind === 'remove') next.splice(at, 1);
            else if (!next.some((n) => n.name === e.name)) next.splice(at, 0, e);
          }
          const made = updateRows(prev, selectNodes(prev, filter, search, sort), next, filter, search, sort);
          if (made !== null) {
            taken++;
            expect(made).toEqual(selectNodes(next, filter, search, sort));
          }
          // Names that differ even case-folded cannot tie, so it must not decline.
          const folded = new Set([...prev, ...next].map((n) => n.name.toLowerCase()));
          if (folded.size === new Set([...prev, ...next].map((n) => n.name)).size)
            expect(made, 'the fast path declined without a tie').not.toBeNull();
        },
      ),
      RUNS,
    );
    // Most generated cases have no case-folded twins: the property above is about the fast path, not
    // about a function that always declines.
    expect(taken / runs).toBeGreaterThan(0.5);
  });

  it('updates one flipped node of 5,000 without declining', () => {
    const prev = largeNodes(5000);
    const next = prev.map((n, i) => (i === 3 ? { ...n, ready: !n.ready } : n));
    const sort = { key: 'ready' as const, dir: 'asc' as const };
    const made = updateRows(prev, selectNodes(prev, 'all', '', sort), next, 'all', '', sort);
    expect(made).toEqual(selectNodes(next, 'all', '', sort));
  });
});
