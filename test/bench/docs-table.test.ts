/**
 * The Performance table of docs/performance.md is the one bench/results/latest.json generates (not typed
 * by hand), rows measured on older code are marked, the soak sentence is the recorded soak's, and
 * `npm run bench -- --only 3,6` replaces only rows 3 and 6 of latest.json, keeping the others.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeBlock, OLDER, readBlock, renderBlock, replaceBlock } from '../../bench/lib/docs-table.ts';
import { freshnessAt, provenance } from '../../bench/lib/provenance.ts';
import { type BenchRun, mergeResults, parseResults } from '../../bench/lib/results.ts';
import { parseSoakSummary, readSoak, readSoakSummary, renderSoak } from '../../bench/lib/soak-summary.ts';
import type { Row } from '../../bench/lib/table.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const readme = fs.readFileSync(path.join(ROOT, 'docs/performance.md'), 'utf8');
const committed = parseResults(fs.readFileSync(path.join(ROOT, 'bench/results/latest.json'), 'utf8'));
const notRecorded = () => 'not-recorded' as const;

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
  commit: null,
  dirty: null,
});

describe('the bench table of docs/performance.md', () => {
  it('is what bench/results/latest.json generates (run `npm run bench:table` after a bench)', () => {
    const block = readBlock(readme);
    expect(block).not.toBeNull();
    expect(normalizeBlock(block ?? '', true)).toEqual(
      normalizeBlock(renderBlock(committed, notRecorded, null), true),
    );
  });

  it('marks every row of a run that recorded no commit, and names the commit of one that did', () => {
    const block = readBlock(readme) ?? '';
    for (const r of committed.rows) {
      const runOf = committed.runs.find((x) => x.at === r.run);
      if (runOf?.commit === null)
        expect(block, `row ${r.id}`).toMatch(new RegExp(`\\| ${r.id} ${OLDER} +\\|`));
    }
    const one = renderBlock(
      { ...committed, runs: committed.runs.map((x) => ({ ...x, commit: 'a'.repeat(40), dirty: true })) },
      () => 'changed-since',
      'b'.repeat(40),
    );
    expect(one).toContain('commit aaaaaaaaaa with uncommitted changes; main/ or common/ changed since');
    expect(one).toContain('commit bbbbbbbbbb, the one this table was generated at');
    const current = renderBlock(
      { ...committed, runs: committed.runs.map((x) => ({ ...x, commit: 'a'.repeat(40), dirty: false })) },
      () => 'current',
      'a'.repeat(40),
    );
    expect(current).not.toContain(OLDER);
  });

  it('the soak sentence is the recorded soak summary, never a hand-written figure', () => {
    const summary = readSoakSummary(ROOT);
    const sentence = readSoak(readme);
    expect(sentence).not.toBeNull();
    // Freshness moves with later commits, so compare the sentence up to its commit clause.
    const head = (s: string) => s.replace(/commit [^)]*\)/, 'commit …)');
    expect(head(sentence ?? '')).toBe(head(renderSoak(summary, 'current')));
  });

  it('the soak sentence says how loaded the machine was; a malformed load is refused', () => {
    const base = {
      at: '2026-12-04T02:00:00.000Z',
      commit: 'c'.repeat(40),
      dirty: false,
      minutes: 10,
      alertsSeen: 3,
      alertsExpected: 3,
      mismatches: 0,
      heapSlopeMbPerMin: 0.01,
    };
    const s = parseSoakSummary(JSON.stringify({ ...base, loadAvg: [11.24, 9], cores: 2 }));
    expect(renderSoak(s, 'current')).toContain('10 min, machine load average 11.2 → 9.0 on 2 cores, commit');
    expect(() => parseSoakSummary(JSON.stringify({ ...base, loadAvg: ['high', 1] }))).toThrow(/not a soak/);
    expect(() => parseSoakSummary(JSON.stringify({ ...base, loadAvg: [1] }))).toThrow(/not a soak/);
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
    expect(normalizeBlock(edited, true)).not.toEqual(
      normalizeBlock(renderBlock(committed, notRecorded, null), true),
    );
    expect(normalizeBlock(block.replaceAll(' | ', '   |   '))).toEqual(normalizeBlock(block));
  });

  it('replaceBlock rewrites only between the markers and refuses a page without them', () => {
    const text = readme.replace(
      /(<!-- bench:table:start[^\n]*-->)[\s\S]*(<!-- bench:table:end -->)/,
      '$1\nold\n$2',
    );
    const out = replaceBlock(text, 'new');
    expect(out.startsWith(text.slice(0, text.indexOf('<!-- bench:table:start')))).toBe(true);
    expect(readBlock(out)?.trim()).toBe('new');
    expect(() => replaceBlock('# no markers', 'x')).toThrow('docs/performance.md has no');
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

describe('provenance: which code a run measured', () => {
  it('reads the commit and dirtiness, and sees main/ or common/ change after it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-bench-git-'));
    try {
      const git = (...args: string[]) =>
        spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
          cwd: dir,
          stdio: 'ignore',
        });
      git('init', '-q');
      fs.mkdirSync(path.join(dir, 'main'));
      fs.writeFileSync(path.join(dir, 'main/a.ts'), '1');
      fs.writeFileSync(path.join(dir, 'notes.md'), '1');
      git('add', '-A');
      git('commit', '-qm', 'one');
      const first = provenance(dir);
      expect(first.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(first.dirty).toBe(false);
      const fresh = freshnessAt(dir);
      expect(fresh(first)).toBe('current');
      fs.writeFileSync(path.join(dir, 'notes.md'), '2');
      git('commit', '-qam', 'docs only');
      expect(fresh(first)).toBe('current');
      fs.writeFileSync(path.join(dir, 'main/a.ts'), '2');
      expect(provenance(dir).dirty).toBe(true);
      git('commit', '-qam', 'code');
      expect(fresh(first)).toBe('changed-since');
      expect(fresh({ commit: 'f'.repeat(40), dirty: false })).toBe('not-recorded');
      expect(fresh({ commit: null, dirty: null })).toBe('not-recorded');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
