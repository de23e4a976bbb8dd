/**
 * Desktop notifications in browser mode (`gpu-fleet serve --demo` in Chromium). An init script wraps
 * the page's real `Notification` to count constructions. With permission granted, a held-down drop
 * raises exactly one notification whose title and body are the alert log's; clicking it focuses the
 * node. With permission denied the window says so and raises none.
 *
 * chrome-headless-shell (what @sparticuz/chromium ships, the fallback without a system Chromium) has no
 * Notification support: a granted permission still reads 'denied' there. These tests then skip, saying
 * so; renderer/bridge/web-notifications.test.ts covers the same logic with a fake.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../common/alerts.ts';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { launchChromium } from './browser.ts';

/** Counts every Notification the page constructs and keeps it, so the test can click it. */
const COUNT_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  if (typeof Real !== 'function') return;
  window.__notes = [];
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      window.__notes.push({ title, body: options && options.body, tag: options && options.tag, note: this });
    }
  };
})();`;

interface Seen {
  title: string;
  body: string;
  tag: string;
}

let served: Served;
let browser: Browser;
const contexts: BrowserContext[] = [];
const GPU_NODES = ['nuc1', 'nuc2', 'omen', 'omen2'];

beforeAll(async () => {
  served = await startServe({ demo: true, port: 0, env: {} }, () => undefined);
  // A real (short) hold-down: the drop must last this long before the policy notifies.
  await served.core.handlers['settings:update']({
    alertRules: {
      holdDownMs: 1000,
      unreachableAfterMs: 60_000,
      withdrawnGpus: true,
      gpuHotC: 85,
      noFreeGpu: false,
    },
  });
  for (const n of GPU_NODES) served.demo?.sim.control.setNodeReady(n, 'True');
  browser = await launchChromium();
  notifications = await browserNotifies();
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await served?.close();
});

const origin = () => new URL(served.bridge.url).origin;
/** Whether this browser shows Web Notifications at all (see the module comment). */
let notifications = false;
const NO_NOTIFICATIONS =
  'this Chromium has no Web Notification support (chrome-headless-shell: a granted permission reads denied)';

async function browserNotifies(): Promise<boolean> {
  const context = await browser.newContext();
  try {
    await context.grantPermissions(['notifications'], { origin: origin() });
    const page = await context.newPage();
    await page.goto(`${origin()}/no-such-page`);
    return await page.evaluate<boolean>(
      "typeof Notification === 'function' && Notification.permission === 'granted'",
    );
  } finally {
    await context.close();
  }
}

async function openPage(permission: 'granted' | 'denied'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1180, height: 760 } });
  contexts.push(context);
  await context.addInitScript({ content: COUNT_NOTIFICATIONS });
  const page = await context.newPage();
  if (permission === 'granted') await context.grantPermissions(['notifications'], { origin: origin() });
  else {
    // Playwright has no "deny"; the browser's own permission store does (Chromium's DevTools protocol).
    const cdp = await context.newCDPSession(page);
    const { targetInfo } = (await cdp.send('Target.getTargetInfo')) as {
      targetInfo: { browserContextId?: string };
    };
    await cdp.send('Browser.setPermission', {
      permission: { name: 'notifications' },
      setting: 'denied',
      origin: origin(),
      ...(targetInfo.browserContextId ? { browserContextId: targetInfo.browserContextId } : {}),
    });
  }
  await page.goto(served.bridge.url);
  return page;
}

const seen = (page: Page) =>
  page.evaluate<Seen[]>('(window.__notes || []).map(({ title, body, tag }) => ({ title, body, tag }))');
const notifyState = (page: Page) => page.getByTestId('notify-state').getAttribute('data-state');
const readyText = (page: Page) => page.getByTestId('card-ready').first().textContent();
const logged = async (kind: Alert['kind']) =>
  (await served.core.handlers['alerts:log']()).filter((a) => a.kind === kind);

describe('browser-mode desktop notifications', () => {
  let granted: Page;

  it('with permission granted: one notification for a held-down drop, with the alert log’s words', async (ctx) => {
    if (!notifications) ctx.skip(NO_NOTIFICATIONS);
    granted = await openPage('granted');
    await expect.poll(() => notifyState(granted), { timeout: 15_000 }).toBe('granted');
    expect(await granted.getByTestId('notify-state').textContent()).toContain('Desktop notifications on');
    await expect.poll(() => readyText(granted), { timeout: 15_000 }).toBe('4/4');
    expect(await seen(granted)).toEqual([]);

    served.demo?.sim.control.setNodeReady('omen', 'False', 'KubeletNotReady', 'container runtime is down');
    await expect.poll(async () => (await logged('ready-drop')).length, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await seen(granted)).length, { timeout: 5000 }).toBe(1);
    const [alert] = await logged('ready-drop');
    if (!alert) throw new Error('no ready-drop in the alert log');
    expect(await seen(granted)).toEqual([
      { title: alert.title, body: alert.short ?? alert.body, tag: alert.id },
    ]);
    expect(alert.title).toBe('home-lab: 1 GPU node down');
    // The window's alert log shows the same alert.
    await granted.getByTestId('tab-alerts').click();
    await expect
      .poll(() => granted.locator('[data-testid="alert-item"][data-kind="ready-drop"]').count())
      .toBe(1);
    expect(
      await granted.locator('[data-testid="alert-item"][data-kind="ready-drop"]').textContent(),
    ).toContain(alert.title);
    expect(await seen(granted)).toHaveLength(1);
  });

  it('clicking the notification focuses the context and opens the node', async (ctx) => {
    if (!notifications) ctx.skip(NO_NOTIFICATIONS);
    await granted.getByTestId('tab-overview').click();
    await granted.evaluate("window.__notes[0].note.dispatchEvent(new Event('click'))");
    await expect.poll(() => granted.getByTestId('node-detail').count()).toBe(1);
    expect(await granted.getByTestId('node-detail').textContent()).toContain('omen');
    expect(served.core.engine.snapshot().focused).toBe('home-lab');
  });

  it('with permission denied: the window says so and raises no notification', async (ctx) => {
    // It goes on from the granted page's drop and counts that page's notifications.
    if (!notifications) ctx.skip(NO_NOTIFICATIONS);
    const denied = await openPage('denied');
    await expect.poll(() => notifyState(denied), { timeout: 15_000 }).toBe('denied');
    expect(await denied.getByTestId('notify-state').textContent()).toContain('blocked for this page');
    await expect.poll(() => readyText(denied), { timeout: 15_000 }).toBe('3/4');
    // A recovery is notified too (the granted page shows it); the denied page constructs nothing.
    served.demo?.sim.control.setNodeReady('omen', 'True');
    await expect.poll(async () => (await logged('recovered')).length, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await seen(granted)).length, { timeout: 5000 }).toBe(2);
    await denied.getByTestId('tab-alerts').click();
    await expect
      .poll(() => denied.locator('[data-testid="alert-item"][data-kind="recovered"]').count())
      .toBe(1);
    expect(await seen(denied)).toEqual([]);
  });
});
