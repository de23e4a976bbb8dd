/**
 * Two `serve` processes on one settings folder would overwrite each other's settings: the second is
 * refused in one sentence (the folder's lock, the one the desktop app holds), and can start once the
 * first has closed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type SimContext, startSimContext } from '../../../test/helpers/sim-context.ts';
import { CliError } from '../io.ts';
import { startServe } from './serve.ts';

let sim: SimContext;
let dir: string;
beforeAll(async () => {
  sim = await startSimContext({ scenario: 'homelab' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-serve-'));
});
afterAll(async () => {
  await sim?.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a second serve on the same settings folder is refused, and starts once the first has closed', async () => {
  const configDir = path.join(dir, 'config');
  const opts = {
    demo: false,
    port: 0,
    kubeconfig: sim.kubeconfigPath,
    env: { GPU_FLEET_CONFIG_DIR: configDir },
    staticDir: dir,
  };
  const first = await startServe(opts, () => undefined);
  try {
    const second = startServe(opts, () => undefined);
    await expect(second).rejects.toThrow(CliError);
    await expect(second).rejects.toThrow(
      `The settings folder ${configDir} is in use by another GPU Fleet (process ${process.pid}); close that one first, or give this one a folder of its own with GPU_FLEET_CONFIG_DIR.`,
    );
  } finally {
    await first.close();
  }
  const third = await startServe(opts, () => undefined);
  await third.close();
  expect(fs.existsSync(path.join(configDir, 'SingletonLock'))).toBe(false);
});
