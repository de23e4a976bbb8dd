/**
 * The window's own bridges failing, in a Korean window: the web bridge that gets no answer or an HTTP
 * status without a refusal, and the preload's reading of a reply that is none (common/bridge-words.ts).
 * The real bridges make the failures (createWebFleet over a fetch that fails, settleReply); the startup
 * screen, the History view's error and the kubectl list's error say them in Korean, never in English.
 */
import { render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BRIDGE_ENGLISH } from '../../common/bridge-words.ts';
import { translator } from '../../common/i18n/translator.ts';
import { type FleetApi, settleReply } from '../../common/ipc.ts';
import App from '../App.svelte';
import { createWebFleet } from '../bridge/web-fleet.ts';
import { DEFAULT_SETTINGS } from '../fixtures/fake-fleet.ts';
import { NOW } from '../fixtures/homelab.ts';
import { i18n } from '../i18n/i18n.svelte.ts';
import { KubectlStore } from '../state/kubectl.svelte.ts';
import { TimelineState } from '../state/timeline.svelte.ts';

const ko = translator('ko').t;
const ENGLISH = [BRIDGE_ENGLISH.noAnswer, BRIDGE_ENGLISH.http(502), BRIDGE_ENGLISH.unexpected];
const realFetch = globalThis.fetch;

/** A window API whose invokes go through `invoke` (pushes are never heard). */
const api = (invoke: FleetApi['invoke']): FleetApi => ({ invoke, on: () => () => undefined, ready() {} });

/** The web bridge's invoke over a fetch that fails (no answer) or answers `status` with no JSON. */
function webInvoke(status: number | null): FleetApi['invoke'] {
  globalThis.fetch = (() =>
    status === null
      ? Promise.reject(new TypeError('fetch failed'))
      : Promise.resolve(new Response('<html>bad gateway</html>', { status }))) as typeof fetch;
  return createWebFleet('http://127.0.0.1:1').invoke;
}

function expectKorean(text: string | null | undefined, korean: string): void {
  expect(text).toBe(korean);
  expect(text).toMatch(/[\uac00-\ud7a3]/);
  for (const e of ENGLISH) expect(text).not.toContain(e);
  expect(text).not.toMatch(/\b(engine|answered|did not|unexpected)\b/);
}

beforeEach(() => i18n.setLanguage('ko'));
afterEach(() => {
  globalThis.fetch = realFetch;
  delete window.fleet;
  i18n.setLanguage('en');
});

describe("the bridges' own failures in a Korean window", () => {
  it('the startup screen says why the first load failed in Korean', async () => {
    // The saved language is Korean (the settings answer); everything else gets HTTP 502 and no JSON.
    const failing = webInvoke(502);
    window.fleet = api(((channel: string, ...args: unknown[]) =>
      channel === 'settings:get'
        ? Promise.resolve({ ...DEFAULT_SETTINGS, language: 'ko' })
        : channel === 'contexts:list'
          ? Promise.resolve([])
          : (failing as (c: string, ...a: unknown[]) => Promise<unknown>)(
              channel,
              ...args,
            )) as FleetApi['invoke']);
    render(App, { props: { now: () => NOW } });
    const empty = await screen.findByTestId('empty-state');
    await waitFor(() => expect(empty.textContent).toContain(ko('bridgeWords.http', { status: '502' })));
    expect(empty.textContent).not.toContain(BRIDGE_ENGLISH.http(502));
    expect(empty.textContent).toMatch(/[\uac00-\ud7a3]/);
  });

  it("the History view's error: no answer, an HTTP status, a reply that is none", async () => {
    const cases: [() => FleetApi['invoke'], string][] = [
      [() => webInvoke(null), ko('bridgeWords.noAnswer')],
      [() => webInvoke(502), ko('bridgeWords.http', { status: '502' })],
      [() => (() => settleReply({ ok: 'maybe' })) as FleetApi['invoke'], ko('bridgeWords.unexpected')],
    ];
    for (const [invoke, korean] of cases) {
      const timeline = new TimelineState(api(invoke()));
      await timeline.load('homelab');
      expectKorean(timeline.error, korean);
    }
  });

  it("the kubectl list's error names the reason in Korean too", async () => {
    const kubectl = new KubectlStore(api(webInvoke(502)));
    await kubectl.refresh();
    expectKorean(
      kubectl.message?.text,
      ko('kubectl.loadFailed', { reason: ko('bridgeWords.http', { status: '502' }) }),
    );
  });
});
