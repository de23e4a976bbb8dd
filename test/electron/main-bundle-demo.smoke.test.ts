/**
 * Smoke test: with no kubeconfig at all, the built main bundle starts the demo clusters from its lazy
 * chunk (sim/demo.ts is a dynamic import of the desktop shell, not part of main.cjs), and quitting the app
 * closes them.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDesktop } from './desktop-harness.ts';
import type { ElectronDouble } from './electron-double.ts';

let double: ElectronDouble | null = null;
afterAll(() => double?.app.quit());

describe('main bundle without a kubeconfig', () => {
  it('does not carry the simulator in main.cjs; a lazy chunk beside it does', () => {
    // A message only the simulator's fault injection writes (sim/server.ts).
    const simOnly = 'simulated failure (HTTP';
    expect(readFileSync('.vite/build/main.cjs', 'utf8')).not.toContain(simOnly);
    const chunks = readdirSync('.vite/build').filter((f) => f !== 'main.cjs' && f.endsWith('.cjs'));
    expect(chunks.some((f) => readFileSync(path.join('.vite/build', f), 'utf8').includes(simOnly))).toBe(
      true,
    );
  });

  it('starts the demo clusters and shows them in the tray', async () => {
    const missing = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-nokube-')), 'no-such-config');
    double = await startDesktop(missing);
    expect(double.trays[0]?.tooltip).toContain('ready GPU nodes');
  });
});
