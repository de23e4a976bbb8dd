/** Every language has every message of English (catalog-check.ts says what is wrong, in sentences). */
import { describe, expect, it } from 'vitest';
import { catalogProblems } from './catalog-check.ts';
import { LOCALES } from './locales.ts';
import { CATALOGS } from './translator.ts';

describe('message catalogs', () => {
  it('English has the plural forms English uses', () => {
    expect(catalogProblems('en', CATALOGS.en)).toEqual([]);
  });

  it.each(LOCALES.filter((l) => l !== 'en'))(
    '%s has every key, plural form and value of English',
    (locale) => {
      expect(catalogProblems(locale, CATALOGS[locale])).toEqual([]);
    },
  );

  it('a missing key, a wrong plural form and a misspelt value are each reported', () => {
    const broken = structuredClone(CATALOGS.ko) as {
      tabs: Record<string, unknown>;
      alert: { drop: Record<string, unknown> };
      overview: Record<string, unknown>;
    };
    delete broken.tabs.nodes;
    broken.alert.drop.title_one = '{{context}}';
    broken.overview.connecting = '{{contxts}}';
    expect(catalogProblems('ko', broken)).toEqual([
      'ko: missing tabs.nodes',
      'ko: alert.drop.title has plural forms [one,other], ko needs [other]',
      'ko: overview.connecting uses {{contxts}}, English has no such value',
      'ko: overview.connecting drops {{contexts}}',
    ]);
  });
});
