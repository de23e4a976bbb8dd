/**
 * End to end: browser mode notices its server going away. The server stops → the page says
 * "Disconnected" within 5 s; the server starts again on the same port with the same token → the page
 * is back (Connected, the new server's data) without a reload; a server with another token → the page
 * says in one sentence how to get back in, and the address bar gets that sentence too, never a raw 401.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, startServe } from '../../main/cli/commands/serve.ts';
import { launchChromium } from './browser.ts';

let served: Served | null = null;
let browser: Browser;
let page: Page;
let port = 0;
let token = '';

const linkState = () => page.getByTestId('link-state').getAttribute('data-state');
const start = async (withToken: string) => {
  served = await startServe({ demo: true, port, env: {}, token: withToken }, () => undefined);
};
const stop = async () => {
  await served?.close();
  served = null;
};

beforeAll(async () => {
  served = await startServe({ demo: true, port: 0, env: {} }, () => undefined);
  port = served.bridge.port;
  token = served.bridge.token;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1180, height: 760 } });
  await page.goto(served.bridge.url);
});
afterAll(async () => {
  await browser?.close();
  await stop();
});

describe('browser mode and its server', () => {
  it('says Connected once the event stream is open', async () => {
    await expect.poll(linkState, { timeout: 15_000 }).toBe('live');
    await expect
      .poll(() => page.getByTestId('card-ready').first().textContent(), { timeout: 15_000 })
      .toBe('0/4');
    // Marks this page: a reload would lose it.
    await page.evaluate('window.__sameDocument = true');
  });

  it('says Disconnected within 5 s of the server stopping', async () => {
    await stop();
    // A deadline, not a sleep: passes as soon as the page says it.
    await expect.poll(linkState, { timeout: 5_000, interval: 100 }).toBe('down');
    expect(await page.getByTestId('link-state').textContent()).toContain('Disconnected');
    expect(await page.getByTestId('link-banner').textContent()).toMatch(
      /Disconnected from the GPU Fleet server since/,
    );
    // The cards no longer claim a live connection.
    expect(await page.getByTestId('state-label').allTextContents()).not.toContain('Live');
  });

  it('is back without a reload when the server starts again', async () => {
    await start(token);
    await expect.poll(linkState, { timeout: 15_000, interval: 100 }).toBe('live');
    expect(await page.evaluate('window.__sameDocument === true')).toBe(true);
    expect(await page.getByTestId('link-banner').count()).toBe(0);
    // The new server's demo (another epoch) is what the page shows now.
    served?.demo?.sim.control.setNodeReady('nuc1', 'True');
    await expect
      .poll(() => page.getByTestId('card-ready').first().textContent(), { timeout: 15_000 })
      .toBe('1/4');
  });

  it('says how to get back in when the server restarted with another token', async () => {
    await stop();
    await expect.poll(linkState, { timeout: 5_000, interval: 100 }).toBe('down');
    await start('another-token-another-token-another-token-00');
    await expect.poll(linkState, { timeout: 15_000, interval: 100 }).toBe('token-changed');
    const sentence = (await page.getByTestId('link-banner').textContent()) ?? '';
    expect(sentence).toContain('restarted with a new session token');
    expect(sentence).toContain('gpu-fleet serve --port N --stable-token');
    expect(sentence).not.toMatch(/401|Refused/);
    expect(await page.evaluate('window.__sameDocument === true')).toBe(true);
    // A reload (or a bookmark without the new token) gets the same advice as a page, not "Refused".
    const other = await browser.newPage({ locale: 'ko-KR' });
    const res = await other.goto(`http://127.0.0.1:${port}/`);
    expect(res?.status()).toBe(401);
    const refused = (await other.getByTestId('refused').textContent()) ?? '';
    expect(refused).toContain('새 세션 토큰');
    expect(refused).not.toMatch(/Refused|missing or wrong/);
    await other.close();
  });
});
