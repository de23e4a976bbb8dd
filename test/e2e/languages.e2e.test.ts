/**
 * The window in each language, in Chromium against `gpu-fleet serve --demo`: a browser context whose
 * locale is ko-KR, zh-CN or ja-JP gets the window and the alert log in that language (from
 * navigator.languages), and the language setting switches it without a reload. Screenshots of each
 * language land in docs/screenshots/ with `npm run screenshots`.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '../../common/i18n/locales.ts';
import { translator } from '../../common/i18n/translator.ts';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { pollUntil } from '../helpers/poll.ts';
import { launchChromium } from './browser.ts';

const SHOTS = process.env.GPU_FLEET_SCREENSHOTS ? 'docs/screenshots' : '.tmp/screenshots';
/** English and Korean overviews and node tables are screenshots.e2e.test.ts's (every width and theme). */
const covered = (locale: Locale) => (locale === 'en' || locale === 'ko' ? '.tmp/screenshots' : SHOTS);
const GPU_NODES = ['nuc1', 'nuc2', 'omen', 'omen2'];
let served: Served;
let browser: Browser;

/** A page in a browser context of that locale (what navigator.languages reports). */
async function open(browserLocale: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: browserLocale, viewport: { width: 1180, height: 760 } });
  const page = await context.newPage();
  await page.goto(served.bridge.url);
  await page.getByTestId('context-card').first().waitFor();
  return { context, page };
}

/** An element's text without the whitespace around it (templates put some there). */
const text = async (l: Locator) => (await l.textContent())?.trim() ?? null;
const tabText = (page: Page, tab: string) => text(page.getByTestId(`tab-${tab}`));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  mkdirSync('.tmp/screenshots', { recursive: true });
  served = await startServe({ demo: true, port: 0, env: {} }, () => undefined);
  browser = await launchChromium();
  // One drop to word: every node Ready, no hold-down, then omen goes NotReady.
  const rules = served.core.settings.get('alertRules');
  await served.core.handlers['settings:update']({ alertRules: { ...rules, holdDownMs: 0 } });
  for (const name of GPU_NODES) served.demo?.sim.control.setNodeReady(name, 'True');
  await pollUntil(
    () => served.core.engine.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4,
    'all Ready',
    { limitMs: 15_000 },
  );
  served.demo?.sim.control.setNodeReady('omen', 'False', 'KubeletNotReady', 'container runtime is down');
  await pollUntil(
    () => served.core.settings.get('alertLog').some((a) => a.kind === 'ready-drop'),
    'the drop',
    {
      limitMs: 10_000,
    },
  );
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

const CASES: [string, Locale, string, string][] = [
  // browser locale, catalog, the Nodes tab, the drop's title as a native reader expects it
  ['ko-KR', 'ko', '노드', 'home-lab: GPU 노드 1개 다운'],
  ['zh-CN', 'zh-CN', '节点', 'home-lab：1 个 GPU 节点宕机'],
  ['ja-JP', 'ja', 'ノード', 'home-lab: GPU ノード 1 台が停止'],
  ['en-US', 'en', 'Nodes', 'home-lab: 1 GPU node down'],
];

describe('the window in the browser’s language', () => {
  it.each(CASES)(
    '%s: the window and the alert text are in %s',
    async (browserLocale, locale, nodesTab, dropTitle) => {
      const tr = translator(locale);
      const { context, page } = await open(browserLocale);
      try {
        expect(await page.evaluate<string>('document.documentElement.lang')).toBe(locale);
        expect(await tabText(page, 'nodes')).toBe(nodesTab);
        expect(await tabText(page, 'overview')).toBe(tr.t('tabs.overview'));
        await expect
          .poll(() => text(page.getByTestId('fleet-health')))
          .toBe(tr.t('clusterPause.nodesDown', { count: 1 }));
        await page.screenshot({ path: `${covered(locale)}/overview-${locale}.png` });

        await page.getByTestId('tab-alerts').click();
        const drop = page.locator('[data-testid="alert-item"][data-kind="ready-drop"]').first();
        await expect.poll(() => text(drop.locator('.title'))).toBe(dropTitle);
        const body = (await drop.locator('.body').textContent()) ?? '';
        // The node and the kubelet's clause as the cluster wrote them; our words around it in the language.
        const reason = tr.t('reason.with', { what: 'NotReady', detail: 'container runtime is down' });
        expect(body).toContain(tr.t('alert.reason', { node: 'omen', reason }));
        expect(body).toContain('container runtime is down');
        expect(body).toContain(tr.t('alert.readyChange', { before: 4, after: 3 }).slice(0, -1));
        expect(await text(drop.locator('.kind'))).toBe(tr.t('alerts.kind.readyDrop'));
        await page.screenshot({ path: `${SHOTS}/alerts-${locale}.png` });

        await page.getByTestId('tab-nodes').click();
        await expect.poll(() => page.getByTestId('node-row').count()).toBe(4);
        await page.screenshot({ path: `${covered(locale)}/nodes-${locale}.png` });
      } finally {
        await context.close();
      }
    },
  );

  it('switching the language setting re-renders the open window without a reload', async () => {
    const { context, page } = await open('ko-KR');
    try {
      // A mark on the window: a reload would lose it.
      await page.evaluate('window.__sameDocument = true');
      await page.getByTestId('tab-settings').click();
      await page.getByTestId('language').selectOption('ja');
      await page.getByTestId('settings-save').click();
      await expect.poll(() => tabText(page, 'nodes')).toBe('ノード');
      expect(await text(page.getByTestId('settings-status'))).toBe('保存しました。');
      expect(await page.evaluate<boolean>('window.__sameDocument === true')).toBe(true);
      expect(served.core.settings.get('language')).toBe('ja');
      await page.screenshot({ path: `${SHOTS}/settings-ja.png` });

      // Back to following the browser: Korean again, still the same document.
      await page.getByTestId('language').selectOption('auto');
      await page.getByTestId('settings-save').click();
      await expect.poll(() => tabText(page, 'nodes')).toBe('노드');
      expect(await page.evaluate<string>('document.documentElement.lang')).toBe('ko');
      expect(await page.evaluate<boolean>('window.__sameDocument === true')).toBe(true);
    } finally {
      await context.close();
    }
  });
});
