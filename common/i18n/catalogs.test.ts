/** Every language has every message of English (catalog-check.ts says what is wrong, in sentences). */
import { describe, expect, it } from 'vitest';
import { catalogProblems, keptWordProblems } from './catalog-check.ts';
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

  it.each(LOCALES.filter((l) => l !== 'en'))(
    '%s keeps Ready, NotReady, MIG, GPU, kubeconfig … in English',
    (locale) => {
      expect(keptWordProblems(locale, CATALOGS[locale])).toEqual([]);
    },
  );

  it.each(LOCALES)('%s names the History tab and write-back with different words', (locale) => {
    // Korean once called both "기록": a "기록" checkbox in Settings read as "record History".
    const c = CATALOGS[locale] as unknown as {
      tabs: { history: string };
      settings: { clusters: { writeBack: string }; writeBack: { legend: string } };
      writeback: { label: string };
    };
    const history = c.tabs.history;
    for (const w of [c.settings.clusters.writeBack, c.settings.writeBack.legend, c.writeback.label])
      expect(w.includes(history), `"${w}" uses the History tab's word "${history}"`).toBe(false);
  });

  it('a translated Kubernetes word is reported', () => {
    const broken = structuredClone(CATALOGS.ja) as { node: Record<string, unknown> };
    broken.node.notReady = '準備未完了';
    expect(keptWordProblems('ja', broken)).toEqual(['ja: node.notReady drops "NotReady"']);
  });

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
