/**
 * Forwarding refusals as facts: every code worded in every language (the English from the same keys
 * main logs), sub-codes only from fixed tables, and the facts kept where an error crosses a process
 * (asErrorInfo, the preload's settleReply) and dropped when malformed.
 */
import { describe, expect, it } from 'vitest';
import { asErrorInfo, toErrorInfo } from '../errors.ts';
import { allForwardWords, FORWARD_WORDS_SAMPLES } from '../forward-words.testkit.ts';
import { type ForwardWords, isForwardWords } from '../forward-words.ts';
import { settleReply } from '../ipc.ts';
import { forwardWordsEnglish, forwardWordsText, refusal } from './forward-words-text.ts';
import { LOCALES } from './locales.ts';
import { translator } from './translator.ts';

const words = allForwardWords();

describe('forwardWordsText', () => {
  it.each(LOCALES)('words every code in %s, every value in its place', (locale) => {
    const tr = translator(locale);
    const english = translator('en');
    for (const w of words) {
      const text = forwardWordsText(w, tr.t);
      expect(text, w.code).toEqual(expect.any(String));
      expect(text).not.toMatch(/\{\{|\}\}|forwarding\.words/);
      // Values written as given (sub-codes like `fault`, and secretParts' kind, pick a sentence instead).
      const given = w.code === 'secretParts' ? ['id'] : ['id', 'kind', 'host', 'aside', 'errno'];
      for (const [k, v] of Object.entries(w)) if (given.includes(k)) expect(text).toContain(v);
      if (locale !== 'en') expect(text).not.toBe(forwardWordsText(w, english.t));
    }
  });

  it('gives distinct English for each sub-code (no table entry points at another)', () => {
    const texts = words.map(forwardWordsEnglish);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('keeps the English the host used to write', () => {
    expect(forwardWordsEnglish({ code: 'tooMany', max: 16 })).toBe('At most 16 forwarding targets.');
    expect(forwardWordsEnglish(FORWARD_WORDS_SAMPLES.keychainBasicText)).toBe(
      'No system keychain (secret service) was found, so forwarding secrets cannot be stored safely; install gnome-keyring or KWallet.',
    );
  });

  it('gives null for a sub-code or kind this version does not know, never another key', () => {
    const t = translator('ko').t;
    const odd = [
      { ...FORWARD_WORDS_SAMPLES.badUrl, fault: 'result' },
      { ...FORWARD_WORDS_SAMPLES.vaultUnusable, why: 'constructor' },
      { ...FORWARD_WORDS_SAMPLES.ntfySecret, fault: '__proto__' },
      { ...FORWARD_WORDS_SAMPLES.secretParts, kind: 'smtp' },
    ] as unknown as ForwardWords[];
    for (const w of odd) expect(forwardWordsText(w, t)).toBeNull();
  });
});

describe('isForwardWords', () => {
  it('takes every sample', () => {
    for (const w of words) expect(isForwardWords(w)).toBe(true);
  });

  it.each([
    ['no code', { id: 'phone' }],
    ['an unknown code', { code: 'toString' }],
    ['a missing value', { code: 'noTarget' }],
    ['an extra value', { code: 'badId', id: 'phone' }],
    ['a value that is an object', { code: 'noTarget', id: { toString: 'x' } }],
    ['a value too long', { code: 'noTarget', id: 'x'.repeat(301) }],
    ['a number that is none', { code: 'tooMany', max: Number.NaN }],
    ['an array', ['badId']],
  ])('refuses %s', (_, v) => {
    expect(isForwardWords(v)).toBe(false);
  });
});

describe('an error that crosses a process', () => {
  const w = FORWARD_WORDS_SAMPLES.urlIsSecret;

  it('keeps its words through toErrorInfo and the preload reader', async () => {
    const info = toErrorInfo(refusal(w));
    expect(info).toEqual({ kind: 'bad-request', message: forwardWordsEnglish(w), words: w });
    await expect(settleReply({ ok: false, error: JSON.parse(JSON.stringify(info)) })).rejects.toEqual(info);
  });

  it('drops malformed words and keeps the sentence', () => {
    expect(asErrorInfo({ kind: 'failed', message: 'm', words: { code: 'badId', extra: 1 } })).toEqual({
      kind: 'failed',
      message: 'm',
    });
  });
});
