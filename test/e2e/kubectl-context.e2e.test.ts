/**
 * End to end: browser mode (`gpu-fleet serve --demo`) in Chromium and kubectl's current context.
 * Keyboard navigation of every tab (Tab through, arrows, Space and Enter on everything that is not a
 * button) writes no kubeconfig: the file's bytes and mtime are the same after. Switching is a cluster
 * card's menu item that asks first, naming the context and the file; Cancel writes nothing, and the
 * confirmed switch changes the current-context line only.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { launchChromium } from './browser.ts';

let served: Served;
let browser: Browser;
let page: Page;

const demo = () => {
  if (!served.demo) throw new Error('serve --demo started no demo');
  return served.demo;
};
const fileState = () => {
  const file = demo().kubeconfigPath;
  return { bytes: readFileSync(file).toString('base64'), mtime: statSync(file).mtimeMs };
};

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

/** What has the focus: its tag and role (a string expression: this file has no DOM types). */
const focused = () =>
  page.evaluate<{ tag: string; role: string | null; type: string | null }>(
    '({ tag: document.activeElement?.tagName ?? "", role: document.activeElement?.getAttribute("role") ?? null, type: document.activeElement?.getAttribute("type") ?? null })',
  );

describe('the kubectl context in browser mode', () => {
  it('is not written by keyboard navigation of any tab', async () => {
    const before = fileState();
    const current = served.core.kubectlContexts().current;
    for (const tab of ['overview', 'nodes', 'history', 'alerts', 'settings']) {
      await page.getByTestId(`tab-${tab}`).click();
      await page.keyboard.press('Escape');
      let stops = 0;
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        const f = await focused();
        if (f.tag === 'BODY') continue;
        stops++;
        // Buttons act on Enter and Space by design; everything else must not act on a stray key.
        if (f.tag === 'BUTTON' || f.role === 'tab' || f.tag === 'A' || f.type === 'checkbox') continue;
        for (const key of ['ArrowDown', 'ArrowDown', 'ArrowUp', 'Space', 'Enter'])
          await page.keyboard.press(key);
        await page.keyboard.press('Escape');
      }
      expect(stops).toBeGreaterThan(0);
    }
    // Whatever the keys started has had its turn to reach the host.
    await page.evaluate('new Promise((r) => setTimeout(r, 300))');
    expect(fileState()).toEqual(before);
    expect(served.core.kubectlContexts().current).toBe(current);
    // Enter in a field no longer saves, but reset what a key may have reached anyway, for the tests after.
    await served.core.handlers['settings:update']({ language: 'auto', theme: 'system' });
    await page.reload();
    await page.getByTestId('context-card').first().waitFor();
  });

  it('switches from a card’s menu after a confirmation that names the context and the file', async () => {
    const [first, second] = demo().contexts;
    if (!first || !second) throw new Error('the demo has fewer than two contexts');
    await page.getByTestId('tab-overview').click();
    await expect
      .poll(() => page.getByTestId('kubectl-current').textContent(), { timeout: 15_000 })
      .toBe(`kubectl: ${first}`);
    const card = page.locator(`[data-testid="context-card"][data-context="${second}"]`);
    const before = readFileSync(demo().kubeconfigPath, 'utf8').split('\n');
    const unchanged = fileState();

    await card.getByTestId('card-menu').click();
    await card.getByTestId('card-kubectl').click();
    const dialog = page.getByTestId('kubectl-confirm');
    expect(await dialog.textContent()).toContain(`Switch kubectl to ${second}?`);
    expect(await dialog.textContent()).toContain(`This sets current-context in ${demo().kubeconfigPath}`);
    // Enter on the dialog as it opens is Cancel (it has the focus): nothing is written.
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(fileState()).toEqual(unchanged);

    await card.getByTestId('card-menu').click();
    await card.getByTestId('card-kubectl').click();
    await page.getByTestId('kubectl-confirm-ok').click();
    await expect
      .poll(() => page.getByTestId('kubectl-context-message').textContent())
      .toBe(`Switched kubectl to ${second}.`);
    const after = readFileSync(demo().kubeconfigPath, 'utf8').split('\n');
    expect(after.length).toBe(before.length);
    expect(after.filter((line, i) => line !== before[i])).toEqual([`current-context: ${second}`]);
    expect(served.core.kubectlContexts().current).toBe(second);
    // A reload reads it back from the host, not from the page's memory.
    await page.reload();
    await expect
      .poll(() => page.getByTestId('kubectl-current').textContent(), { timeout: 15_000 })
      .toBe(`kubectl: ${second}`);
  });
});
