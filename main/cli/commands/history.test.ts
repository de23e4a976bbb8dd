/**
 * `gpu-fleet history` as a real process (the built CLI), reading the timeline read-only while a
 * recorder in this process holds the writer's lock and goes on writing.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TimelineView } from '../../../common/timeline.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import { FLUSH_MS } from '../../timeline/recorder.ts';
import { inventory, node, notReady, recorder, tempDir } from '../../timeline/timeline.testkit.ts';
import { rangeOf } from './history.ts';

const BIN = path.resolve(import.meta.dirname, '../../../bin/gpu-fleet.mjs');
let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.reverse()) c();
  cleanups = [];
});

function runBin(
  args: string[],
  configDir: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', GPU_FLEET_CONFIG_DIR: configDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('gpu-fleet history', () => {
  it('reads the episodes while the app writes the timeline (read-only beside the writer)', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const clock = new ManualClock(Date.now() - 30 * 60_000);
    const { rec } = recorder(t.dir, clock);
    cleanups.push(() => rec.stop());
    rec.inventory('lab', inventory([node({ name: 'nuc1' }), node({ name: 'nuc2' })]));
    rec.free('lab', [{ label: 'A100 SXM4 40GB', free: 8 }]);
    clock.advance(FLUSH_MS);
    rec.inventory('lab', inventory([notReady('nuc1'), node({ name: 'nuc2' })]));
    rec.free('lab', [{ label: 'A100 SXM4 40GB', free: 4 }]);
    clock.advance(17 * 60_000);
    rec.inventory('lab', inventory([node({ name: 'nuc1' }), node({ name: 'nuc2' })]));
    clock.advance(FLUSH_MS);
    // The "engine" keeps writing batches (nuc2 flapping) for as long as the CLI runs.
    let flip = false;
    const writing = setInterval(() => {
      flip = !flip;
      rec.inventory(
        'lab',
        inventory([node({ name: 'nuc1' }), flip ? node({ name: 'nuc2' }) : notReady('nuc2')]),
      );
      clock.advance(1);
      rec.flushAll();
    }, 5);
    cleanups.push(() => clearInterval(writing));
    const [json, table] = await Promise.all([
      runBin(['history', '--context', 'lab', '--since', '2h', '-o', 'json'], t.dir),
      runBin(['history', '--context', 'lab', '--since', '2h'], t.dir),
    ]);
    clearInterval(writing);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const view = JSON.parse(json.stdout) as TimelineView;
    expect(view.episodes[0]).toMatchObject({
      kind: 'not-ready',
      node: 'nuc1',
      state: 'Unknown',
      to: expect.any(Number),
    });
    // Both figures fall in one minute's bucket: the fewest free is what the line keeps.
    expect(view.free).toEqual([
      { product: 'A100 SXM4 40GB', points: [expect.objectContaining({ free: 4 })] },
    ]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^free GPUs, A100 SXM4 40GB: 4 at the end, 4 at the lowest$/m);
    expect(table.stdout).toMatch(
      /^nuc1 Unknown \d{4}-\d\d-\d\d \d\d:\d\d–\d\d:\d\d \(17 min\): Kubelet stopped posting node status\.$/m,
    );
  }, 30_000);

  it('says in one sentence that nothing was recorded yet, and refuses a range it cannot read', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const r = await runBin(['history'], t.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'No timeline has been recorded yet: the GPU Fleet app records it while it runs.',
    );
    expect(() => rangeOf({ since: '1h', from: '2026-12-01' }, 0)).toThrow(
      'use either --since or --from/--to, not both',
    );
    expect(() => rangeOf({ from: '2026-12-02T00:00:00Z', to: '2026-12-01T00:00:00Z' }, 0)).toThrow(
      'the range is empty',
    );
    expect(() => rangeOf({ from: 'yesterday' }, 0)).toThrow('invalid time "yesterday" for --from');
    expect(rangeOf({ since: '7d' }, 10 * 86_400_000)).toEqual({ from: 3 * 86_400_000, to: 10 * 86_400_000 });
  }, 30_000);
});
