/**
 * Switching kubectl's context in a Korean window: every refusal main/kube makes (common/kubeconfig-words.ts,
 * one of each code and sub-code) reaches the window as facts, read back as the preload reads a reply,
 * and is shown in Korean with none of the CLI's English sentences: through the card menu and its
 * confirmation once, then every code through the store the window shows the message of.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
import { wordsEnglish, wordsText } from '../../common/i18n/words-text.ts';
import { settleReply } from '../../common/ipc.ts';
import { allKubeconfigWords, KUBECONFIG_WORDS_SAMPLES } from '../../common/kubeconfig-words.testkit.ts';
import type { KubeconfigWords } from '../../common/kubeconfig-words.ts';
import App from '../App.svelte';
import { createFakeFleet } from '../fixtures/fake-fleet.ts';
import { fleet, homelab, NOW } from '../fixtures/homelab.ts';
import { i18n } from '../i18n/i18n.svelte.ts';
import { KubectlStore } from '../state/kubectl.svelte.ts';

const words = allKubeconfigWords();
const english = words.map(wordsEnglish);
/** Words of the English sentences that a Korean one would not hold (paths, names and kubectl commands aside). */
const ENGLISH =
  /\b(the|is|not|cannot|could|was|changed|exist|exists|file|files|read|write|named|nothing|again|safely|larger|text)\b|\b(The|There|No|A|GPU Fleet cannot) /;

function expectKorean(text: string | null | undefined): void {
  expect(text).toBeTruthy();
  expect(text).toMatch(/[\uac00-\ud7a3]/);
  expect(english.find((e) => (text ?? '').includes(e))).toBeUndefined();
  expect(text).not.toMatch(ENGLISH);
}

/** A refusal as main answers it (the sentence is the CLI's English) and the preload hands it on. */
const refused = (w: KubeconfigWords) =>
  settleReply({ ok: false, error: { kind: 'conflict', message: wordsEnglish(w), words: w } });

afterEach(() => {
  delete window.fleet;
  i18n.setLanguage('en');
});

describe('kubectl context switching in a Korean window', () => {
  it('the samples cover every code, each English sentence caught by the guard', () => {
    expect(new Set(words.map((w) => w.code))).toEqual(new Set(Object.keys(KUBECONFIG_WORDS_SAMPLES)));
    for (const e of english) expect(e).toMatch(ENGLISH);
  });

  it('words the refusal of a switch confirmed from the card menu in Korean', async () => {
    const fake = createFakeFleet(fleet([homelab(), { ...homelab(), context: 'office' }]));
    fake.state.settings = { ...fake.state.settings, language: 'ko' };
    const invoke = fake.api.invoke;
    fake.api.invoke = ((channel: string, ...args: unknown[]) =>
      channel === 'kubectl:use-context'
        ? refused(KUBECONFIG_WORDS_SAMPLES.kubeLockHeld)
        : (invoke as (c: string, ...a: unknown[]) => Promise<unknown>)(channel, ...args)) as typeof invoke;
    window.fleet = fake.api;
    render(App, { props: { now: () => NOW } });
    const office = (await screen.findAllByTestId('context-card')).find((c) => c.dataset.context === 'office');
    await fireEvent.click(within(office as HTMLElement).getByTestId('card-menu'));
    await fireEvent.click(await screen.findByTestId('card-kubectl'));
    await fireEvent.click(await screen.findByTestId('kubectl-confirm-ok'));
    const message = await screen.findByTestId('kubectl-context-message');
    expect(message.textContent).toBe(wordsText(KUBECONFIG_WORDS_SAMPLES.kubeLockHeld, translator('ko').t));
    expectKorean(message.textContent);
  });

  it('words every refusal in Korean', async () => {
    i18n.setLanguage('ko');
    let next: KubeconfigWords = KUBECONFIG_WORDS_SAMPLES.kubeChanged;
    const fake = createFakeFleet(fleet([homelab(), { ...homelab(), context: 'office' }]));
    const invoke = fake.api.invoke;
    fake.api.invoke = ((channel: string, ...args: unknown[]) =>
      channel === 'kubectl:use-context'
        ? refused(next)
        : (invoke as (c: string, ...a: unknown[]) => Promise<unknown>)(channel, ...args)) as typeof invoke;
    const store = new KubectlStore(fake.api);
    await store.refresh();
    for (const w of words) {
      next = w;
      store.ask('office');
      expect(await store.confirm()).toBe(false);
      await waitFor(() => expect(store.message?.text).toBe(wordsText(w, translator('ko').t)));
      expectKorean(store.message?.text);
    }
  });
});
