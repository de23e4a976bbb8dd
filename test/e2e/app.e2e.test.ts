/**
 * End to end: `gpu-fleet serve --demo` (engine + loopback bridge + the in-process homelab sim) driven
 * in Debian's Chromium. Screenshots of the main views land in docs/screenshots/ (npm run screenshots).
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { launchChromium } from './browser.ts';

// `npm run screenshots` refreshes the committed ones; ordinary runs keep the tree clean.
const SHOTS = process.env.GPU_FLEET_SCREENSHOTS ? 'docs/screenshots' : '.tmp/screenshots';
const GPU_NODES = ['nuc1', 'nuc2', 'omen', 'omen2'];
let served: Served;
let browser: Browser;
let page: Page;

/** The views screenshots.e2e.test.ts shows in every width, theme and language go to .tmp only. */
const COVERED = new Set(['overview-homelab-down', 'nodes-homelab', 'settings', 'overview-popover-420']);
const shot = (name: string) =>
  page.screenshot({ path: `${COVERED.has(name) ? '.tmp/screenshots' : SHOTS}/${name}.png` });
const readyText = () => page.getByTestId('card-ready').first().textContent();

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  mkdirSync('.tmp/screenshots', { recursive: true });
  served = await startServe({ demo: true, port: 0, env: {} }, () => undefined);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1180, height: 760 } });
  await page.goto(served.bridge.url);
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('browser mode against the demo cluster', () => {
  it('shows the homelab card at 0/4 ready GPU nodes', async () => {
    await expect.poll(readyText, { timeout: 15_000 }).toBe('0/4');
    expect(await page.getByTestId('context-card').first().getAttribute('data-context')).toBe('home-lab');
    await shot('overview-homelab-down');
  });

  it('lists the four GPU nodes with <unlabeled> ones in the node table', async () => {
    await page.getByTestId('tab-nodes').click();
    await expect.poll(() => page.getByTestId('node-row').count()).toBe(4);
    const names = await page
      .getByTestId('node-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-node')));
    expect(names).toEqual(GPU_NODES);
    expect(await page.locator('[data-node="nuc2"]').textContent()).toContain('<unlabeled>');
    await shot('nodes-homelab');
  });

  it('updates card, table, chart and health when the sim marks the nodes Ready', async () => {
    for (const name of GPU_NODES) served.demo?.sim.control.setNodeReady(name, 'True');
    await page.getByTestId('tab-overview').click();
    await expect.poll(readyText, { timeout: 5000 }).toBe('4/4');
    await expect.poll(() => page.getByTestId('fleet-health').getAttribute('data-health')).toBe('all-ready');
    await page.getByTestId('tab-history').click();
    // The timeline is read when the view opens.
    await expect.poll(() => page.getByTestId('history-chart').count()).toBe(1);
    await shot('history');
  });

  it('round-trips settings: hold-down 0 s is saved and survives a reload', async () => {
    await page.getByTestId('tab-settings').click();
    await page.getByTestId('hold-down').fill('0');
    await page.getByTestId('settings-save').click();
    await expect.poll(() => page.getByTestId('settings-status').textContent()).toMatch(/saved/i);
    expect(served.core.settings.get('alertRules').holdDownMs).toBe(0);
    await page.reload();
    await page.getByTestId('tab-settings').click();
    await expect.poll(() => page.getByTestId('hold-down').inputValue()).toBe('0');
    await shot('settings');
  });

  it('logs a ready-drop alert after the hold-down when a GPU node goes NotReady', async () => {
    served.demo?.sim.control.setNodeReady('omen', 'False', 'KubeletNotReady', 'container runtime is down');
    await page.getByTestId('tab-alerts').click();
    await expect
      .poll(() => page.locator('[data-testid="alert-item"][data-kind="ready-drop"]').count(), {
        timeout: 5000,
      })
      .toBe(1);
    expect(await page.getByTestId('alert-item').first().textContent()).toContain('omen');
    await expect.poll(() => page.getByTestId('fleet-health').getAttribute('data-health')).toBe('degraded');
    await shot('alerts');
  });

  it('refuses requests without the token or from a foreign Host', async () => {
    const base = `http://127.0.0.1:${served.bridge.port}`;
    expect((await fetch(`${base}/`)).status).toBe(401);
    expect((await fetch(`${base}/api/invoke/fleet:snapshot`, { method: 'POST', body: '[]' })).status).toBe(
      401,
    );
    // fetch() may not set Host; a DNS-rebinding page would arrive with its own name in it.
    const foreign = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: served.bridge.port,
          method: 'POST',
          path: `/api/invoke/fleet:snapshot?token=${served.bridge.token}`,
          headers: { host: `evil.example:${served.bridge.port}` },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end('[]');
    });
    expect(foreign).toBe(403);
    const ok = await fetch(`${base}/api/invoke/fleet:snapshot?token=${served.bridge.token}`, {
      method: 'POST',
      body: '[]',
    });
    expect(ok.status).toBe(200);
  });

  it('fits a 420 px tray popover', async () => {
    await page.setViewportSize({ width: 420, height: 640 });
    await page.getByTestId('tab-overview').click();
    // A string expression: this file is type-checked without the DOM library.
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('overview-popover-420');
  });
});
