/**
 * End to end, the timeline (issue 24): `gpu-fleet serve --demo` records into its own timeline database,
 * and the History view's episode list matches the alert log; switching ranges reads in place (no reload).
 * Also the chart at a 420 px window.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../common/alerts.ts';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { launchChromium } from './browser.ts';

const GPU_NODES = ['nuc1', 'nuc2', 'omen', 'omen2'];
let served: Served;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  served = await startServe({ demo: true, port: 0, env: {} }, () => undefined);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  await page.goto(served.bridge.url);
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

const kinds = async () => ((await served.core.handlers['alerts:log']()) as Alert[]).map((a) => a.kind);

describe('the timeline in browser mode', () => {
  it('lists an episode for every node of the ready-drop alerts in the alert log', async () => {
    await served.core.handlers['settings:update']({
      alertRules: {
        holdDownMs: 0,
        unreachableAfterMs: 60_000,
        withdrawnGpus: true,
        gpuHotC: 85,
        noFreeGpu: false,
      },
    });
    for (const n of GPU_NODES) served.demo?.sim.control.setNodeReady(n, 'True');
    await expect
      .poll(() => served.core.engine.snapshot().contexts[0]?.inventory?.ready_gpu_nodes, { timeout: 10_000 })
      .toBe(4);
    served.demo?.sim.control.setNodeReady('omen', 'False', 'KubeletNotReady', 'container runtime is down');
    await expect.poll(kinds, { timeout: 10_000 }).toContain('ready-drop');
    served.demo?.sim.control.setNodeReady('omen', 'True');
    await expect
      .poll(() => served.core.engine.snapshot().contexts[0]?.inventory?.ready_gpu_nodes, { timeout: 10_000 })
      .toBe(4);

    await page.getByTestId('tab-history').click();
    await page.getByTestId('range-1h').click();
    await expect.poll(() => page.getByTestId('episode').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const shown = await page
      .getByTestId('episode')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-kind'), e.getAttribute('data-node')]));
    const log = (await served.core.handlers['alerts:log']()) as Alert[];
    const context = served.core.engine.snapshot().focused;
    const dropped = new Set(
      log.filter((a) => a.kind === 'ready-drop' && a.context === context).flatMap((a) => a.nodes),
    );
    // Every node of a ready-drop alert has its episode; the others shown are the home lab's nodes that
    // were already down when the timeline first looked (each an episode of its own since 7aade1c).
    const notReady = new Set(shown.filter(([k]) => k === 'not-ready').map(([, n]) => n));
    expect(dropped.size).toBeGreaterThan(0);
    for (const n of dropped) expect(notReady).toContain(n);
    for (const n of notReady) expect(GPU_NODES).toContain(n);
    expect(await page.locator('[data-node="omen"]').first().textContent()).toContain(
      'container runtime is down',
    );
    expect(await page.getByTestId('alert-marker').count()).toBeGreaterThan(0);
  }, 40_000);

  it('switches ranges in place, without reloading the page', async () => {
    await page.evaluate(() => {
      (globalThis as unknown as { keep: number }).keep = 42;
    });
    for (const r of ['24h', '7d', '30d', '1h'] as const) {
      await page.getByTestId(`range-${r}`).click();
      await expect.poll(() => page.getByTestId('history-view').getAttribute('data-range')).toBe(r);
      expect(await page.getByTestId(`range-${r}`).getAttribute('aria-pressed')).toBe('true');
    }
    expect(await page.evaluate(() => (globalThis as unknown as { keep?: number }).keep)).toBe(42);
    expect(await page.getByTestId('timeline-status').getAttribute('data-state')).toBe('recording');
  });

  it('draws the chart at its real width in a 420 px window, text at its own size', async () => {
    await page.setViewportSize({ width: 420, height: 760 });
    await expect
      .poll(() =>
        page.locator('[data-testid="history-chart"] svg').evaluate((s) => s.getBoundingClientRect().width),
      )
      .toBeLessThanOrEqual(420);
    const box = await page.locator('[data-testid="history-chart"] svg').evaluate((s) => ({
      shown: s.getBoundingClientRect().width,
      drawn: Number(s.getAttribute('viewBox')?.split(' ')[2]),
    }));
    // Not scaled down: 12 px labels stay 12 px.
    expect(Math.abs(box.shown - box.drawn)).toBeLessThan(2);
    // At the right end (now): what the counts are now.
    await page.locator('[data-testid="history-chart"] svg').hover({ position: { x: box.shown - 2, y: 60 } });
    await expect
      .poll(() => page.getByTestId('chart-hover').textContent())
      .toMatch(/\d\d:\d\d: \d+ of \d+ GPU nodes ready, \d+ GPUs?$/);
  });
});
