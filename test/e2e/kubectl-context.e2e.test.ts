/**
 * End to end: browser mode (`gpu-fleet serve --demo`) in Chromium switches kubectl's current context
 * from the window's control; the demo kubeconfig changes in its current-context line only, and the
 * window shows the new current context after the host's push.
 */
import { readFileSync } from 'node:fs';
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
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('the kubectl context control in browser mode', () => {
  it('switches the demo kubeconfig from the window and shows the new current context', async () => {
    const demo = served.demo;
    if (!demo) throw new Error('serve --demo started no demo');
    const [first, second] = demo.contexts;
    if (!first || !second) throw new Error('the demo has fewer than two contexts');
    const select = page.getByTestId('kubectl-context-select');
    await expect.poll(() => select.inputValue(), { timeout: 15_000 }).toBe(first);
    const before = readFileSync(demo.kubeconfigPath, 'utf8').split('\n');
    await select.selectOption(second);
    await expect
      .poll(() => page.getByTestId('kubectl-context-message').textContent())
      .toBe(`Switched kubectl to ${second}.`);
    const after = readFileSync(demo.kubeconfigPath, 'utf8').split('\n');
    expect(after.length).toBe(before.length);
    expect(after.filter((line, i) => line !== before[i])).toEqual([`current-context: ${second}`]);
    expect(served.core.kubectlContexts().current).toBe(second);
    // A reload reads it back from the host, not from the page's memory.
    await page.reload();
    await expect
      .poll(() => page.getByTestId('kubectl-context-select').inputValue(), { timeout: 15_000 })
      .toBe(second);
  });
});
