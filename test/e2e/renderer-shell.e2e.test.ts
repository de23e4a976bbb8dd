/** The built renderer boots in real Chromium, talks to `window.fleet`, and shows a readable error without it. */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { serveFolder } from './static-server.ts';

let browser: Browser;
let server: Awaited<ReturnType<typeof serveFolder>>;

beforeAll(async () => {
  server = await serveFolder(path.resolve('.vite/renderer/main_window'));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('renders the app shell and asks the host for app info', async () => {
  const page = await browser.newPage();
  await page.addInitScript(() => {
    const info = { version: '9.9.9', mode: 'browser', demo: true, noKubeconfig: false, notices: [] };
    Object.defineProperty(globalThis, 'fleet', {
      value: { invoke: async () => info, on: () => () => undefined },
    });
  });
  await page.goto(server.url);
  await expect.poll(() => page.getByTestId('version').textContent()).toContain('v9.9.9');
  expect(await page.locator('h1').textContent()).toBe('GPU Fleet');
  await page.close();
});

it('says the engine is not connected when there is no host', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not connected/);
  await page.close();
});
