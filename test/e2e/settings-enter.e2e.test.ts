/**
 * End to end in Chromium (browser mode, `gpu-fleet serve --demo`): Enter in a settings text field does
 * not save the form (a browser submits a form on Enter in its text inputs); the Save button does.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { launchChromium } from './browser.ts';

let served: Served;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  served = await startServe({ demo: true, port: 0, env: {} }, () => undefined);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1180, height: 760 } });
  await page.goto(served.bridge.url);
  await page.getByTestId('context-card').first().waitFor();
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

const holdDownMs = async () => (await served.core.handlers['settings:get']()).alertRules.holdDownMs;

describe('the settings form', () => {
  it('saves nothing on Enter in a text field, and saves with the Save button', async () => {
    const before = await holdDownMs();
    await page.getByTestId('tab-settings').click();
    const field = page.getByTestId('hold-down');
    await field.fill('45');
    await field.press('Enter');
    // Whatever Enter started has had its turn to reach the host.
    await page.evaluate('new Promise((r) => setTimeout(r, 300))');
    expect(await holdDownMs()).toBe(before);
    expect(await page.getByTestId('settings-status').textContent()).toBe('');
    await page.getByTestId('settings-save').click();
    await expect.poll(holdDownMs).toBe(45_000);
  });
});
