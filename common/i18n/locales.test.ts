import { describe, expect, it } from 'vitest';
import { effectiveLocale, isLanguageSetting, matchLocale, pickLocale } from './locales.ts';

describe('locale choice', () => {
  it.each([
    ['en-US', 'en'],
    ['en_GB', 'en'],
    ['ko-KR', 'ko'],
    ['ko', 'ko'],
    ['ja-JP', 'ja'],
    ['zh-CN', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-Hans-SG', 'zh-CN'],
    ['zh-TW', null],
    ['zh-Hant', null],
    ['zh-HK', null],
    ['de-DE', null],
    ['not a tag!', null],
    ['', null],
  ])('%s → %s', (tag, want) => {
    expect(matchLocale(tag)).toBe(want);
  });

  it('takes the first preferred language with a catalog, English when none has one', () => {
    expect(pickLocale(['de-DE', 'zh-TW', 'ja-JP', 'ko-KR'])).toBe('ja');
    expect(pickLocale(['de-DE', 'fr'])).toBe('en');
    expect(pickLocale([])).toBe('en');
  });

  it('the setting wins over the system unless it is auto', () => {
    expect(effectiveLocale('auto', ['ko-KR'])).toBe('ko');
    expect(effectiveLocale('ja', ['ko-KR'])).toBe('ja');
  });

  it('accepts only the settings it knows', () => {
    expect(isLanguageSetting('auto')).toBe(true);
    expect(isLanguageSetting('zh-CN')).toBe(true);
    expect(isLanguageSetting('zh')).toBe(false);
    expect(isLanguageSetting('toString')).toBe(false);
  });
});
