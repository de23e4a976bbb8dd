import { describe, expect, it } from 'vitest';
import { translator } from './translator.ts';

describe('translator', () => {
  it('picks the plural form through Intl.PluralRules and formats numbers for the locale', () => {
    const en = translator('en');
    expect(en.t('common.gpus', { count: 1 })).toBe('1 GPU');
    expect(en.t('common.gpus', { count: 1200 })).toBe('1,200 GPUs');
    expect(translator('ko').t('common.gpus', { count: 1 })).toBe('GPU 1개');
    expect(translator('zh-CN').t('tabs.nodes')).toBe('节点');
    expect(translator('ja').t('alert.drop.title', { context: 'lab', count: 2 })).toBe(
      'lab: GPU ノード 2 台が停止',
    );
  });

  it('interpolates an outside value as written: no second interpolation, no nesting, no escaping', () => {
    const name = '{{context}} $t(tabs.nodes) <b>&';
    expect(translator('en').t('alert.recovered.title', { context: name })).toBe(`${name}: GPU nodes back`);
  });

  it("a value named like one of i18next's options is only a value: a context named 'one', 'other', 'male'", () => {
    const en = translator('en');
    for (const context of ['one', 'other', 'male', 'plural', '']) {
      expect(en.t('alert.drop.title', { context, count: 5 })).toBe(`${context}: 5 GPU nodes down`);
      expect(en.t('alert.drop.title', { context, count: 1 })).toBe(`${context}: 1 GPU node down`);
    }
    expect(en.t('alert.recovered.title', { context: 'lab', lng: 'ja', ns: 'x', defaultValue: 'y' })).toBe(
      'lab: GPU nodes back',
    );
  });

  it('formats lists, dates and relative times through Intl for the locale', () => {
    expect(translator('en').list(['a', 'b', 'c'])).toBe('a, b, and c');
    expect(translator('ko').relative(-3, 'minute')).toBe('3분 전');
    expect(translator('ja').dateTime(Date.UTC(2026, 0, 2), { timeZone: 'UTC', dateStyle: 'medium' })).toBe(
      '2026/01/02',
    );
  });

  it('one translator per locale, reused', () => {
    expect(translator('ko')).toBe(translator('ko'));
  });
});
