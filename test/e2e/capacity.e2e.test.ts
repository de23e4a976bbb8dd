/**
 * End to end: `gpu-fleet serve --demo` in Chromium. The Capacity view and the tray's headline (read
 * through the engine, as the engine host words it) show the same free GPUs as `gpu-fleet free -o json
 * --all-contexts` against the same demo clusters.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { trayFleet } from '../../main/engine-host/tray/tray-fleet.ts';
import { buildTrayModel } from '../../main/engine-host/tray/tray-model.ts';
import { runCliOnce } from '../helpers/cli-harness.ts';
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

interface FreeJson {
  contexts: {
    context: string;
    free: { free_total: number | null; products: { label: string; free: number }[] } | null;
  }[];
}

/** Free per product label across clusters, and the total, as `gpu-fleet free -o json` says. */
async function cliFigures(): Promise<{ byProduct: Record<string, number>; total: number }> {
  const kubeconfig = served.demo?.kubeconfigPath ?? '';
  const r = await runCliOnce(['free', '-o', 'json', '--all-contexts', '--kubeconfig', kubeconfig]);
  expect(r.code).toBe(0);
  const doc = JSON.parse(r.stdout) as FreeJson;
  const byProduct: Record<string, number> = {};
  let total = 0;
  for (const c of doc.contexts) {
    total += c.free?.free_total ?? 0;
    for (const p of c.free?.products ?? []) byProduct[p.label] = (byProduct[p.label] ?? 0) + p.free;
  }
  return { byProduct, total };
}

describe('free GPUs in browser mode', () => {
  it('the Capacity view and the tray headline show the figures of gpu-fleet free -o json', async () => {
    const known = () => served.core.engine.snapshot().contexts.every((c) => c.free?.state === 'known');
    await expect.poll(known, { timeout: 15_000 }).toBe(true);
    const cli = await cliFigures();
    expect(cli.total).toBeGreaterThan(0);

    await page.getByTestId('tab-capacity').click();
    const shown = async () =>
      Object.fromEntries(
        await page
          .getByTestId('capacity-row')
          .evaluateAll((rows) =>
            rows.map((r) => [
              r.getAttribute('data-product') ?? '',
              Number(r.querySelector('[data-testid="capacity-free"]')?.textContent ?? 'NaN'),
            ]),
          ),
      );
    await expect.poll(shown, { timeout: 10_000 }).toEqual(cli.byProduct);
    expect(await page.getByTestId('capacity-pending').locator('li').count()).toBe(2);

    const tray = buildTrayModel(trayFleet(served.core.engine.snapshot()), translator('en'));
    const headline = tray.menu[0]?.label ?? '';
    expect(headline).toMatch(new RegExp(`^${cli.total} free GPUs: `));
    const top = Object.entries(cli.byProduct).sort((a, b) => b[1] - a[1])[0];
    expect(headline).toContain(`${top?.[1]} × ${top?.[0]} (small-lab)`);
  });
});
