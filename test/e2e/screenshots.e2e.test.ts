/**
 * The window as a user sees it, against `gpu-fleet serve --demo` in Chromium: the overview, the node
 * table, a node's detail, the Capacity view, History and the settings, at 1280 and 420 px wide, light
 * and dark, in English and Korean. `npm run screenshots` writes them to docs/screenshots/
 * (`<view>-<lang>-<theme>-<width>.png`); ordinary runs write to .tmp/screenshots. Each view also must
 * not scroll sideways, neither the page nor the view inside it.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { launchChromium } from './browser.ts';

const SHOTS = process.env.GPU_FLEET_SCREENSHOTS ? 'docs/screenshots' : '.tmp/screenshots';
let served: Served;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  served = await startServe({ demo: true, port: 0, env: {} }, () => undefined);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

/** How far the page, or the view's own scroller (main), would scroll sideways: 0 when it fits. */
const overflow = (page: Page) =>
  page.evaluate<number>(`Math.max(
    document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ...[...document.querySelectorAll('main')].map((m) => m.scrollWidth - m.clientWidth),
  )`);

const CASES = [
  ['en', 'en-US'],
  ['ko', 'ko-KR'],
].flatMap(([lang, locale]) =>
  (['light', 'dark'] as const).flatMap((theme) =>
    [1280, 420].map((width) => ({ lang: lang ?? 'en', locale: locale ?? 'en-US', theme, width })),
  ),
);

describe('screenshots of the window', () => {
  it.each(CASES)('$lang, $theme, $width px', async ({ lang, locale, theme, width }) => {
    const context = await browser.newContext({
      locale,
      colorScheme: theme,
      viewport: { width, height: width > 600 ? 800 : 760 },
    });
    const page = await context.newPage();
    const shot = async (view: string) => {
      expect(await overflow(page), `${view} scrolls sideways`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/${view}-${lang}-${theme}-${width}.png` });
    };
    try {
      await page.goto(served.bridge.url);
      await expect
        .poll(() => page.getByTestId('card-ready').first().textContent(), { timeout: 15_000 })
        .toBe('0/4');
      await page.getByTestId('link-state').and(page.locator('[data-state="live"]')).waitFor();
      // omen2 has no GPU labels: its card line names the model its telemetry reports, once scraped.
      await page
        .locator('[data-testid="card-problem"][data-node="omen2"]')
        .first()
        .waitFor({ timeout: 30_000 });
      await shot('overview');

      await page.getByTestId('tab-nodes').click();
      await expect.poll(() => page.getByTestId('node-row').count()).toBe(4);
      await shot('nodes');

      await page.getByTestId('tab-overview').click();
      await page.locator('[data-testid="card-down-node"][data-node="nuc1"] button').first().click();
      await expect
        .poll(() => page.getByTestId('detail-condition').count(), { timeout: 10_000 })
        .toBeGreaterThan(0);
      await shot('node-detail');
      await page.keyboard.press('Escape');

      await page.getByTestId('tab-capacity').click();
      await expect.poll(() => page.getByTestId('capacity-row').count()).toBeGreaterThan(0);
      await shot('capacity');

      // home-lab's GPU nodes were down before the app first looked: History still says so.
      await page.getByTestId('tab-history').click();
      await expect
        .poll(() => page.getByTestId('episode').count(), { timeout: 10_000 })
        .toBeGreaterThanOrEqual(4);
      await shot('history');

      await page.getByTestId('tab-settings').click();
      await page.getByTestId('settings-form').waitFor();
      await shot('settings');
    } finally {
      await context.close();
    }
  });
});
