/**
 * End to end: three kubeconfig contexts that reach one cluster (the simulator's admin, read-only and
 * revocable users: one server, one CA) are one card in browser mode, which names all three.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { openSettings } from '../../main/settings/store.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';
import { launchChromium } from './browser.ts';

const CONTEXTS = ['sim-admin', 'sim-readonly', 'sim-revocable'];
let sim: SimContext;
let configDir: string;
let served: Served;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  sim = await startSimContext({ scenario: 'homelab' });
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-e2e-same-'));
  openSettings({ cwd: configDir }).update({ contexts: CONTEXTS });
  served = await startServe(
    { demo: false, port: 0, kubeconfig: sim.kubeconfigPath, env: { GPU_FLEET_CONFIG_DIR: configDir } },
    () => undefined,
  );
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1180, height: 760 } });
  await page.goto(served.bridge.url);
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
  await sim?.cleanup();
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
});

describe('one cluster through several contexts, in browser mode', () => {
  it('shows one card that names its three contexts', async () => {
    const names = page.getByTestId('card-contexts');
    await expect
      .poll(() => names.textContent(), { timeout: 15_000 })
      .toBe('Contexts: sim-admin, sim-readonly, sim-revocable');
    expect(await page.getByTestId('context-card').count()).toBe(1);
    expect(await page.getByTestId('context-card').getAttribute('data-context')).toBe('sim-admin');
  });
});
