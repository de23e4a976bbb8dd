// Every area's words are worded in every language from the catalogs, never as a key or with a value
// left out, and the codes of the areas never meet (the code alone picks the area's wording).
import { describe, expect, it } from 'vitest';
import { BRIDGE_ENGLISH } from '../bridge-words.ts';
import { allForwardWords } from '../forward-words.testkit.ts';
import { allKubeconfigWords } from '../kubeconfig-words.testkit.ts';
import { allSettingsWords } from '../settings-words.testkit.ts';
import { isWords, WORDS_AREAS, type Words } from '../words.ts';
import { LOCALES } from './locales.ts';
import { translator } from './translator.ts';
import { wordsEnglish, wordsText } from './words-text.ts';

const bridge: Words[] = [
  { code: 'bridgeNoAnswer' },
  { code: 'bridgeHttp', status: 502 },
  { code: 'bridgeUnexpected' },
  { code: 'bridgeUnknownChannel', channel: 'no:such' },
];
const all: Words[] = [...allForwardWords(), ...allKubeconfigWords(), ...allSettingsWords(), ...bridge];
const SCRIPT = {
  ko: /[\uac00-\ud7a3]/,
  ja: /[\u3040-\u30ff\u4e00-\u9fff]/,
  'zh-CN': /[\u4e00-\u9fff]/,
} as const;

describe('words of every area', () => {
  it('have codes no two areas share', () => {
    const codes = Object.values(WORDS_AREAS).flat();
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('pass the check where they arrive, and an unknown code or stray value does not', () => {
    for (const w of all) expect(isWords(w)).toBe(true);
    expect(isWords({ code: 'kubeChanged' })).toBe(false);
    expect(isWords({ code: 'kubeChanged', file: 'x', more: 'y' })).toBe(false);
    expect(isWords({ code: 'settingsSaveFailed', errno: 'x'.repeat(301) })).toBe(false);
    expect(isWords({ code: 'toString' })).toBe(false);
  });

  it('are worded in every language, with every value, and differently from English', () => {
    for (const w of all) {
      const en = wordsEnglish(w);
      expect(en).not.toBe(w.code);
      for (const locale of LOCALES) {
        const text = wordsText(w, translator(locale).t);
        expect(text, `${locale} ${w.code}`).toBeTruthy();
        expect(text).not.toMatch(/\{\{|kubectl\.words|settingsWords\./);
        for (const [k, v] of Object.entries(w))
          if (k !== 'code' && k !== 'fault' && k !== 'why' && k !== 'kind' && typeof v === 'string')
            expect(text, `${locale} ${w.code} ${k}`).toContain(v);
        if (locale !== 'en') {
          expect(text).toMatch(SCRIPT[locale]);
          expect(text).not.toBe(en);
        }
      }
    }
  });

  it("are the bridges' own English, so a log or test reads the same sentence the catalog has", () => {
    expect(wordsEnglish({ code: 'bridgeNoAnswer' })).toBe(BRIDGE_ENGLISH.noAnswer);
    expect(wordsEnglish({ code: 'bridgeHttp', status: 502 })).toBe(BRIDGE_ENGLISH.http(502));
    expect(wordsEnglish({ code: 'bridgeUnexpected' })).toBe(BRIDGE_ENGLISH.unexpected);
    expect(wordsEnglish({ code: 'bridgeUnknownChannel', channel: 'x:y' })).toBe(
      BRIDGE_ENGLISH.unknownChannel('x:y'),
    );
  });

  it('pick the sentence by the file-system code where it means something to the user', () => {
    const en = (errno: string) => wordsEnglish({ code: 'settingsSaveFailed', errno });
    expect(en('EACCES')).toMatch(/may not write/);
    expect(en('ENOSPC')).toMatch(/disk is full/);
    expect(en('EIO')).toBe('Settings could not be saved (EIO).');
  });
});
