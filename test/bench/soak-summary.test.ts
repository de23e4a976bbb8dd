/**
 * The soak's summary names the code as it was when the soak started: a commit made during a long soak
 * (or a change committed away) does not relabel the result.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { parseSoakSummary, soakStart, soakSummary } from '../../bench/lib/soak-summary.ts';

it('records the commit and dirtiness read at the start, not those at the end', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-soak-git-'));
  try {
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' });
    const head = () => spawnSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout.trim();
    git('init', '-q');
    fs.mkdirSync(path.join(dir, 'main'));
    fs.writeFileSync(path.join(dir, 'main/a.ts'), '1');
    git('add', '-A');
    git('commit', '-qm', 'one');
    const measured = head();
    fs.writeFileSync(path.join(dir, 'main/a.ts'), '2');
    const start = soakStart(dir);
    // During the soak: the change is committed.
    git('commit', '-qam', 'two');
    expect(head()).not.toBe(measured);
    const summary = soakSummary(start, {
      at: '2026-12-04T05:00:00.000Z',
      minutes: 10,
      alertsSeen: 3,
      alertsExpected: 3,
      mismatches: 0,
      heapSlopeMbPerMin: 0.01,
    });
    expect(summary).toMatchObject({
      commit: measured,
      dirty: true,
      loadAvg: [start.load, expect.any(Number)],
    });
    expect(parseSoakSummary(JSON.stringify(summary))).toEqual(summary);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
