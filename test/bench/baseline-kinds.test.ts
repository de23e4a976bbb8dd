/**
 * docs/performance.md says, above the table, what each row's Baseline column holds (another program in
 * the same run, our engine with a feature off, a scaled poller, an analytic delay, none). Every row of
 * bench/results/latest.json is named there exactly once, so a new row cannot inherit a claim about
 * baselines that is not true of it (issue 27: "every row pairs our figure with a baseline measured in the
 * same run" was false for seven rows).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResults } from '../../bench/lib/results.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const doc = fs.readFileSync(path.join(ROOT, 'docs/performance.md'), 'utf8');
const ids = parseResults(fs.readFileSync(path.join(ROOT, 'bench/results/latest.json'), 'utf8')).rows.map(
  (r) => r.id,
);

const ONE = String.raw`\d+[a-z]?(?:–\d+[a-z]?)?`;
const LIST = new RegExp(String.raw`\b[Rr]ows?\s+(${ONE}(?:(?:,\s*|\s+and\s+)${ONE})*)`, 'g');

/**
 * The row ids a text names: "rows 1, 3, 4a–4c and 9" → 1, 3, 4a, 4b, 4c, 9 (in order, repeats kept).
 * Words in parentheses are asides ("see the row 2 note"), not what a kind of baseline covers.
 */
function rowsNamed(text: string): string[] {
  return [...text.replace(/\([^)]*\)/g, '').matchAll(LIST)].flatMap((m) =>
    (m[1] ?? '').split(/,\s*|\s+and\s+/).flatMap((one) => {
      const range = /^(\d+)([a-z])–(\d+)([a-z])$/.exec(one);
      if (!range || range[1] !== range[3]) return [one];
      const [from, to] = [range[2] ?? 'a', range[4] ?? 'a'].map((c) => c.charCodeAt(0)) as [number, number];
      return Array.from({ length: to - from + 1 }, (_, i) => `${range[1]}${String.fromCharCode(from + i)}`);
    }),
  );
}

describe('what the Baseline column holds', () => {
  it('names every row exactly once', () => {
    const start = doc.indexOf('What the "Baseline" column holds');
    const end = doc.indexOf('<!-- bench:table:start');
    expect(start).toBeGreaterThan(0);
    const named = rowsNamed(doc.slice(start, end));
    expect([...named].sort()).toEqual([...ids].sort());
  });

  it('reads lists, ranges and lines that break inside a list', () => {
    expect(rowsNamed('rows 1, 3, 4a–4c, 7a, 9\n  and 10 (a 30 s poller over 3 passes)')).toEqual([
      '1',
      '3',
      '4a',
      '4b',
      '4c',
      '7a',
      '9',
      '10',
    ]);
    expect(rowsNamed('**Rows 5a and 5c**: none (see the row 2 note). **Row\n  11b**: counts.')).toEqual([
      '5a',
      '5c',
      '11b',
    ]);
  });
});
