// The tests run on the Node the app ships with (Electron 45 embeds Node 24), brought in by the exact
// `node` devDependency that npm puts first on PATH for every script, not on the machine's own Node.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pinned = (
  JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies.node;

describe('toolchain', () => {
  it('runs the test workers on the pinned Node 24', () => {
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect(process.version).toBe(`v${pinned}`);
  });

  it('has node:sqlite without a flag', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(':memory:');
    expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    db.close();
  });

  it('gives child processes spawned by name the same Node', () => {
    const r = spawnSync('node', ['--version'], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe(`v${pinned}`);
  });
});
