/**
 * End to end, the fleet stream in browser mode (`serve --demo` in Chromium): a node flip reaches the
 * window as one small `fleet:delta` (no whole snapshot, no second read); after the event stream is cut,
 * the reconnecting EventSource sends its Last-Event-ID and the window shows what it missed, from the one
 * whole snapshot the bridge sends then; a reconnection that missed nothing gets none.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { launchChromium } from './browser.ts';

let served: Served;
let browser: Browser;
let page: Page;

/** Notes every fleet event the page's event stream delivers, and the page's whole-snapshot reads. */
const NOTE = `(() => {
  window.__fleet = [];
  window.__reads = 0;
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, listener, options) {
    const noted = type === 'fleet:delta' || type === 'fleet:snapshot'
      ? function (event) { window.__fleet.push({ type, bytes: event.data.length, id: event.lastEventId }); return listener.call(this, event); }
      : listener;
    return add.call(this, type, noted, options);
  };
  const fetch = window.fetch;
  window.fetch = function (url, ...rest) {
    if (String(url).includes('/api/invoke/fleet:snapshot')) window.__reads++;
    return fetch.call(this, url, ...rest);
  };
})()`;

interface Noted {
  type: 'fleet:delta' | 'fleet:snapshot';
  bytes: number;
  id: string;
}
const noted = () => page.evaluate<Noted[]>('window.__fleet');
const reads = () => page.evaluate<number>('window.__reads');
const pill = (node: string) => page.locator(`[data-node="${node}"] .pill`).textContent();
const sim = () => {
  const s = served.demo?.sim;
  if (!s) throw new Error('serve --demo started no simulator');
  return s.control;
};

beforeAll(async () => {
  served = await startServe({ demo: true, port: 0, env: {} }, () => undefined);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1180, height: 760 } });
  await page.addInitScript(NOTE);
  await page.goto(served.bridge.url);
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('the fleet stream in the browser window', () => {
  it('opens the node table of the demo cluster', async () => {
    await expect
      .poll(() => page.getByTestId('card-ready').first().textContent(), { timeout: 15_000 })
      .toBe('0/4');
    await page.getByTestId('tab-nodes').click();
    await expect.poll(() => page.getByTestId('node-row').count()).toBe(4);
  });

  it('brings a node flip as one small fleet:delta, without a whole snapshot or a read', async () => {
    const before = (await noted()).length;
    const readsBefore = await reads();
    sim().setNodeReady('nuc1', 'True');
    await expect.poll(() => pill('nuc1'), { timeout: 5000 }).toBe('Ready');
    const since = (await noted()).slice(before);
    expect(since.length).toBeGreaterThan(0);
    expect(since.every((n) => n.type === 'fleet:delta')).toBe(true);
    expect(Math.max(...since.map((n) => n.bytes))).toBeLessThan(2048);
    expect(since.every((n) => /^[A-Za-z0-9_-]+:\d+$/.test(n.id))).toBe(true);
    expect(await reads()).toBe(readsBefore);
  });

  it('shows what it missed while the event stream was cut, from one whole snapshot on reconnecting', async () => {
    const before = (await noted()).length;
    served.bridge.cutStreams();
    sim().setNodeReady('omen', 'True');
    await expect
      .poll(() =>
        served.core
          .published()
          .contexts.some(
            (c) =>
              c.context === 'home-lab' && c.inventory?.nodes.find((n) => n.name === 'omen')?.ready === true,
          ),
      )
      .toBe(true);
    // The page reconnects (renderer/bridge/web-stream.ts) naming the id it had (?lastEventId=).
    await expect.poll(() => pill('omen'), { timeout: 20_000 }).toBe('Ready');
    const since = (await noted()).slice(before);
    expect(since.filter((n) => n.type === 'fleet:snapshot')).toHaveLength(1);
  });

  it('gets no whole snapshot when it reconnects having missed nothing, and deltas after that', async () => {
    await expect.poll(() => served.bridge.streamBytes().length).toBe(1);
    const before = (await noted()).length;
    const seq = served.core.published().seq;
    served.bridge.cutStreams();
    await expect.poll(() => served.bridge.streamBytes().length).toBe(0);
    await expect.poll(() => served.bridge.streamBytes().length, { timeout: 20_000 }).toBe(1);
    // The demo cluster is quiet: nothing was published while the stream was down.
    expect(served.core.published().seq).toBe(seq);
    sim().setNodeReady('omen2', 'True');
    await expect.poll(() => pill('omen2'), { timeout: 5000 }).toBe('Ready');
    const since = (await noted()).slice(before);
    expect(since.map((n) => n.type)).not.toContain('fleet:snapshot');
    expect(since.map((n) => n.type)).toContain('fleet:delta');
  });
});
