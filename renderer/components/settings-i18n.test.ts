/**
 * Saving settings in a Korean window: every refusal the host's settings store makes that the form's own
 * checks cannot (common/settings-words.ts: a schema refusal, a credential, the write cap, a write the
 * file system refuses) reaches it as facts, read back as the preload reads a reply, and the status line
 * says it in Korean with none of the host's English sentences.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
import { wordsEnglish, wordsText } from '../../common/i18n/words-text.ts';
import { settleReply } from '../../common/ipc.ts';
import { allSettingsWords, SETTINGS_WORDS_SAMPLES } from '../../common/settings-words.testkit.ts';
import type { SettingsWords } from '../../common/settings-words.ts';
import { createFakeFleet } from '../fixtures/fake-fleet.ts';
import { mixedFleet } from '../fixtures/homelab.ts';
import { i18n } from '../i18n/i18n.svelte.ts';
import { SettingsStore } from '../state/settings.svelte.ts';
import SettingsView from './SettingsView.svelte';

const words = allSettingsWords();
const english = words.map(wordsEnglish);
const ENGLISH =
  /\b(the|is|not|could|saved|settings|disk|full|write|file|value|looks|changed)\b|\b(Settings|The|GPU Fleet may) /;

function expectKorean(text: string | null | undefined): void {
  expect(text).toBeTruthy();
  expect(text).toMatch(/[\uac00-\ud7a3]/);
  expect(english.find((e) => (text ?? '').includes(e))).toBeUndefined();
  expect(text).not.toMatch(ENGLISH);
}

beforeEach(() => i18n.setLanguage('ko'));
afterEach(() => i18n.setLanguage('en'));

describe('saving settings in a Korean window', () => {
  it('the samples cover every code, each English sentence caught by the guard', () => {
    expect(new Set(words.map((w) => w.code))).toEqual(new Set(Object.keys(SETTINGS_WORDS_SAMPLES)));
    for (const e of english) expect(e).toMatch(ENGLISH);
  });

  it('words every refusal of "Save" in Korean', async () => {
    let next: SettingsWords = SETTINGS_WORDS_SAMPLES.settingsNotObject;
    const fake = createFakeFleet(mixedFleet());
    const invoke = fake.api.invoke;
    fake.api.invoke = ((channel: string, ...args: unknown[]) =>
      channel === 'settings:update'
        ? settleReply({ ok: false, error: { kind: 'failed', message: wordsEnglish(next), words: next } })
        : (invoke as (c: string, ...a: unknown[]) => Promise<unknown>)(channel, ...args)) as typeof invoke;
    const settings = new SettingsStore(fake.api);
    await settings.load();
    render(SettingsView, { props: { settings } });
    await screen.findByTestId('settings-form');
    for (const w of words) {
      next = w;
      await fireEvent.click(screen.getByTestId('settings-save'));
      const korean = wordsText(w, translator('ko').t);
      await waitFor(() => expect(screen.getByTestId('settings-status').textContent?.trim()).toBe(korean));
      expectKorean(screen.getByTestId('settings-status').textContent);
    }
  });
});
