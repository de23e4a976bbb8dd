/**
 * End to end: a page load of browser mode is clean: no console error or warning (a CSP directive the
 * browser ignores, a Svelte warning) and no failed request (the favicon), on any tab.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { launchChromium } from './browser.ts';

let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  served = await startServe({ demo: true, port: 0, env: {} }, () => undefined);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1180, height: 760 } });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${new URL(r.url()).pathname}`);
  });
  // A reload aborts the open event stream: that is the page leaving, not a failure.
  page.on('requestfailed', (r) => {
    if (!r.failure()?.errorText.includes('ERR_ABORTED')) problems.push(`failed ${new URL(r.url()).pathname}`);
  });
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('a page load of browser mode', () => {
  it('logs no error or warning and fails no request, on any tab', async () => {
    await page.goto(served.bridge.url);
    await page.getByTestId('context-card').first().waitFor();
    for (const tab of ['nodes', 'history', 'alerts', 'settings', 'overview']) {
      await page.getByTestId(`tab-${tab}`).click();
      await page.getByTestId('main').waitFor();
    }
    await page.reload();
    await page.getByTestId('context-card').first().waitFor();
    expect(problems).toEqual([]);
    // The page names its icon, so no browser asks for /favicon.ico (headless Chromium never does).
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
  });
});
