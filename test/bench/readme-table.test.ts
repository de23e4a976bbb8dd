/**
 * The README's Performance table is the one bench/results/latest.json generates (not typed by hand), and
 * `npm run bench -- --only 3,6` replaces only rows 3 and 6 of latest.json, keeping the others.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeBlock, readBlock, renderBlock, replaceBlock } from '../../bench/lib/readme-table.ts';
import { type BenchRun, mergeResults, parseResults } from '../../bench/lib/results.ts';
import type { Row } from '../../bench/lib/table.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const committed = parseResults(fs.readFileSync(path.join(ROOT, 'bench/results/latest.json'), 'utf8'));

const row = (id: string, ours: string): Row => ({
  id,
  measure: `measure ${id}`,
  ours,
  baseline: `baseline ${id}`,
  target: '–',
  met: null,
  raw: {},
});
const run = (at: string, groups: string[]): BenchRun => ({
  at,
  machine: '2 × test CPU',
  groups,
  seconds: 1,
  load: { start: [1, 1, 1], end: [2, 2, 2] },
});

describe('the README bench table', () => {
  it('is what bench/results/latest.json generates (run `npm run bench:table` after a bench)', () => {
    const block = readBlock(readme);
    expect(block).not.toBeNull();
    expect(normalizeBlock(block ?? '')).toEqual(normalizeBlock(renderBlock(committed)));
  });

  it('every committed row keeps a same-run baseline and names the run that measured it', () => {
    expect(committed.rows.length).toBeGreaterThan(0);
    const runs = new Set(committed.runs.map((r) => r.at));
    for (const r of committed.rows) {
      expect(r.baseline, `row ${r.id}`).not.toBe('');
      expect(runs.has(r.run), `row ${r.id}'s run`).toBe(true);
    }
  });

  it('a hand edit of one figure is caught (Biome padding is not)', () => {
    const block = readBlock(readme) ?? '';
    const first = committed.rows[0];
    if (!first) throw new Error('no rows');
    const edited = block.replace(first.ours, `${first.ours} (edited)`);
    expect(edited).not.toBe(block);
    expect(normalizeBlock(edited)).not.toEqual(normalizeBlock(renderBlock(committed)));
    expect(normalizeBlock(block.replaceAll(' | ', '   |   '))).toEqual(normalizeBlock(block));
  });

  it('replaceBlock rewrites only between the markers and refuses a README without them', () => {
    const text = readme.replace(
      /(<!-- bench:table:start[^\n]*-->)[\s\S]*(<!-- bench:table:end -->)/,
      '$1\nold\n$2',
    );
    const out = replaceBlock(text, 'new');
    expect(out.startsWith(text.slice(0, text.indexOf('<!-- bench:table:start')))).toBe(true);
    expect(readBlock(out)?.trim()).toBe('new');
    expect(() => replaceBlock('# no markers', 'x')).toThrow('README.md has no');
  });
});

describe('bench --only merges into latest.json', () => {
  const first = mergeResults(
    null,
    run('t1', ['1', '3', '6']),
    [row('1', 'a'), row('3', 'b'), row('6a', 'c'), row('6b', 'd')],
    [
      { group: '6', text: 'old six' },
      { group: '1', text: 'one' },
    ],
  );

  it('replaces the rows and notes of the groups it measured, keeps the rest with their run', () => {
    const second = mergeResults(
      first,
      run('t2', ['3', '6']),
      [row('3', 'B'), row('6a', 'C')],
      [{ group: '6', text: 'new six' }],
    );
    expect(second.rows.map((r) => [r.id, r.ours, r.run])).toEqual([
      ['1', 'a', 't1'],
      ['3', 'B', 't2'],
      ['6a', 'C', 't2'],
    ]);
    expect(second.notes).toEqual([
      { group: '1', text: 'one' },
      { group: '6', text: 'new six' },
    ]);
    expect(second.runs.map((r) => r.at)).toEqual(['t1', 't2']);
    expect(second.at).toBe('t2');
  });

  it('drops a run no row cites any more', () => {
    const all = mergeResults(first, run('t3', ['1', '3', '6']), [row('1', 'x')], []);
    expect(all.runs.map((r) => r.at)).toEqual(['t3']);
  });

  it('a malformed latest.json is refused in one sentence', () => {
    expect(() => parseResults('{"at": "x", "runs": [], "rows": [{"id": 1}]}')).toThrow(
      'bench/results/latest.json: "rows" is not a list of result rows.',
    );
  });
});
