/**
 * The forwarding section in a Korean window: every refusal and problem the vault, the shell and the
 * host report (common/forward-words.ts, one of each code and sub-code) reaches it as facts and is
 * shown in Korean with none of the engine's English sentences: a target's problem, the vault's load
 * problems, the missing keychain (said before a secret is typed, and "Set secret" stays off), and the
 * refusals of "Save target", "Set secret" and "Remove", read back as the preload reads a reply.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allForwardWords, FORWARD_WORDS_SAMPLES } from '../../common/forward-words.testkit.ts';
import type { ForwardWords } from '../../common/forward-words.ts';
import type { ForwardTargetSetting, ForwardView } from '../../common/forwarding.ts';
import { forwardWordsEnglish, forwardWordsText } from '../../common/i18n/forward-words-text.ts';
import { translator } from '../../common/i18n/translator.ts';
import { wordsEnglish, wordsText } from '../../common/i18n/words-text.ts';
import { settleReply } from '../../common/ipc.ts';
import { allSettingsWords } from '../../common/settings-words.testkit.ts';
import type { Words } from '../../common/words.ts';
import { createFakeFleet } from '../fixtures/fake-fleet.ts';
import { fleet } from '../fixtures/homelab.ts';
import { i18n } from '../i18n/i18n.svelte.ts';
import { ForwardingStore } from '../state/forwarding.svelte.ts';
import SettingsForwarding from './SettingsForwarding.svelte';

const words = allForwardWords();
const english = words.map(forwardWordsEnglish);
/**
 * Words of the English sentences that a Korean one would not hold (ids, kinds, hosts and the name of
 * the freedesktop "Secret Service" aside): lower-case words, and the capitals a sentence starts with.
 */
const ENGLISH =
  /\b(the|is|not|cannot|could|secret|target|targets|forwarding|enter|must|takes|only|has|most|keychain|again|found|install|moved)\b|\b(The|There|At|No|This|Forwarding|Only|A|An) /;

const setting = (id: string): ForwardTargetSetting => ({
  id,
  kind: 'ntfy',
  url: 'http://127.0.0.1:8090',
  topic: 'gpu-alerts',
  clusters: 'all',
  minSeverity: 'low',
  language: 'ko',
  enabled: true,
});

function expectKorean(text: string | null | undefined): void {
  expect(text).toBeTruthy();
  expect(text).toMatch(/[\uac00-\ud7a3]/);
  expect(english.find((e) => (text ?? '').includes(e))).toBeUndefined();
  expect(text).not.toMatch(ENGLISH);
}

/** A refusal as main answers it and the preload hands it to the window. */
const refused = (w: ForwardWords) =>
  settleReply({ ok: false, error: { kind: 'bad-request', message: forwardWordsEnglish(w), words: w } });

beforeEach(() => i18n.setLanguage('ko'));
afterEach(() => i18n.setLanguage('en'));

describe('forwarding in a Korean window', () => {
  it('the samples cover every code, each with its English sentence', () => {
    expect(new Set(words.map((w) => w.code))).toEqual(new Set(Object.keys(FORWARD_WORDS_SAMPLES)));
    expect(english.every((e) => /^[\x20-\x7e]+$/.test(e) && e.length > 10)).toBe(true);
    // The guard below would catch each of them.
    for (const e of english) expect(e).toMatch(ENGLISH);
  });

  it("words every target's problem, the vault's problems and the missing keychain in Korean", async () => {
    const ids = words.map((_, i) => `t${i}`);
    const view: ForwardView = {
      targets: [],
      status: [],
      editable: ids.map(setting),
      secretSet: [],
      problems: Object.fromEntries(ids.map((id, i) => [id, words[i] as ForwardWords])),
      vault: { unavailable: FORWARD_WORDS_SAMPLES.keychainBasicText, problems: words },
    };
    render(SettingsForwarding, {
      forwarding: new ForwardingStore(createFakeFleet(fleet([]), { forwarding: view }).api),
    });
    // Up front, before anything is typed: no keychain, so no secret can be set.
    expectKorean((await screen.findByTestId('forward-keychain')).textContent);
    expect(screen.getByTestId('forward-keychain').textContent).toContain('gnome-keyring');
    for (const id of ids) expectKorean(screen.getByTestId(`forward-problem-${id}`).textContent);
    // A token typed all the same cannot be sent to a vault that could not keep it.
    await fireEvent.input(screen.getByTestId('forward-token-t0'), { target: { value: 'tk_x' } });
    expect(screen.getByTestId('forward-secret-save-t0')).toHaveProperty('disabled', true);
    const vault = screen.getAllByTestId('forward-vault-problem');
    expect(vault).toHaveLength(words.length);
    for (const p of vault) expectKorean(p.textContent);
  });

  it('words every refusal of "Save target", "Set secret" and "Remove" in Korean', async () => {
    const fake = createFakeFleet(fleet([]), {
      forwarding: { targets: [], status: [], editable: [setting('phone')], secretSet: [], problems: {} },
    });
    let next: ForwardWords = FORWARD_WORDS_SAMPLES.badId;
    const invoke = fake.api.invoke;
    fake.api.invoke = ((channel: string, ...args: unknown[]) =>
      channel === 'forward:save' || channel === 'forward:secret' || channel === 'forward:remove'
        ? refused(next)
        : (invoke as (c: string, ...a: unknown[]) => Promise<unknown>)(channel, ...args)) as typeof invoke;
    render(SettingsForwarding, { forwarding: new ForwardingStore(fake.api) });
    await fireEvent.input(await screen.findByTestId('forward-id'), { target: { value: 'other' } });
    await fireEvent.input(screen.getByTestId('forward-url'), { target: { value: 'http://127.0.0.1:8090' } });
    await fireEvent.input(screen.getByTestId('forward-topic'), { target: { value: 'gpu-alerts' } });
    for (const w of words) {
      next = w;
      const korean = forwardWordsText(w, translator('ko').t);
      const shown = (id: string) => screen.queryByTestId(id)?.textContent;
      await fireEvent.click(screen.getByTestId('forward-save'));
      await waitFor(() => expect(shown('forward-form-error')).toBe(korean));
      expectKorean(shown('forward-form-error'));

      await fireEvent.input(screen.getByTestId('forward-token-phone'), { target: { value: 'tk_x' } });
      await fireEvent.click(screen.getByTestId('forward-secret-save-phone'));
      await waitFor(() => expect(shown('forward-secret-error-phone')).toBe(korean));
      expectKorean(shown('forward-secret-error-phone'));

      await fireEvent.click(screen.getByTestId('forward-remove-phone'));
      await waitFor(() => expect(shown('forward-remove-error')).toBe(korean));
      expectKorean(shown('forward-remove-error'));
    }
  });

  it('words a refused "Send test" in Korean, and a settings file that cannot be written for "Save target"', async () => {
    const fake = createFakeFleet(fleet([]), {
      forwarding: { targets: [], status: [], editable: [setting('phone')], secretSet: [], problems: {} },
    });
    let next: Words = FORWARD_WORDS_SAMPLES.noTarget;
    const invoke = fake.api.invoke;
    fake.api.invoke = ((channel: string, ...args: unknown[]) =>
      channel === 'forward:test' || channel === 'forward:save'
        ? settleReply({ ok: false, error: { kind: 'failed', message: wordsEnglish(next), words: next } })
        : (invoke as (c: string, ...a: unknown[]) => Promise<unknown>)(channel, ...args)) as typeof invoke;
    render(SettingsForwarding, { forwarding: new ForwardingStore(fake.api) });
    for (const w of [FORWARD_WORDS_SAMPLES.noTarget, ...allSettingsWords()]) {
      next = w;
      const korean = wordsText(w, translator('ko').t);
      await fireEvent.click(await screen.findByTestId('forward-test-phone'));
      await waitFor(() => expect(screen.queryByTestId('forward-result-phone')?.textContent).toBe(korean));
      expect(korean).toMatch(/[\uac00-\ud7a3]/);
      expect(korean).not.toBe(wordsEnglish(w));
    }
    next = { code: 'settingsSaveFailed', errno: 'ENOSPC' };
    await fireEvent.input(screen.getByTestId('forward-id'), { target: { value: 'other' } });
    await fireEvent.input(screen.getByTestId('forward-url'), { target: { value: 'http://127.0.0.1:8090' } });
    await fireEvent.input(screen.getByTestId('forward-topic'), { target: { value: 'gpu-alerts' } });
    await fireEvent.click(screen.getByTestId('forward-save'));
    await waitFor(() =>
      expect(screen.queryByTestId('forward-form-error')?.textContent).toBe(
        wordsText(next, translator('ko').t),
      ),
    );
  });
});
