/**
 * The message API for every process: `translator(locale).t('tabs.nodes')`. Pure and synchronous (the
 * catalogs are bundled), so the renderer, the Electron main process (tray, notifications) and tests use
 * the same words. i18next does lookup, interpolation and plural choice (Intl.PluralRules); numbers, lists,
 * dates and relative times go through Intl for the locale.
 */
import i18next, { type i18n } from 'i18next';
import type { MessageKey, MessageVars } from './catalog-types.ts';
import { en } from './catalogs/en.ts';
import { ja } from './catalogs/ja.ts';
import { ko } from './catalogs/ko.ts';
import { zhCN } from './catalogs/zh-CN.ts';
import { DEFAULT_LOCALE, type Locale } from './locales.ts';

export const CATALOGS = Object.freeze({ en, 'zh-CN': zhCN, ko, ja }) satisfies Readonly<
  Record<Locale, object>
>;

export interface Translator {
  readonly locale: Locale;
  /** The message for a key in this locale; `vars.count` picks the plural form. */
  t(key: MessageKey, vars?: MessageVars): string;
  /** A number as this locale writes it (grouping, decimals). */
  number(n: number, options?: Intl.NumberFormatOptions): string;
  /** "a, b and c" in this locale's words. */
  list(items: readonly string[], type?: 'conjunction' | 'disjunction' | 'unit'): string;
  /** A date and/or time (epoch ms) in this locale. */
  dateTime(ms: number, options?: Intl.DateTimeFormatOptions): string;
  /** "3 minutes ago" / "in 2 hours" in this locale. */
  relative(value: number, unit: Intl.RelativeTimeFormatUnit, numeric?: 'always' | 'auto'): string;
}

let shared: i18n | null = null;

function engine(): i18n {
  if (shared) return shared;
  const inst = i18next.createInstance();
  // Resources are in memory and initAsync is off, so init has finished when it returns; the promise
  // only repeats that result.
  inst
    .init({
      resources: Object.fromEntries(Object.entries(CATALOGS).map(([l, c]) => [l, { translation: c }])),
      lng: DEFAULT_LOCALE,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: Object.keys(CATALOGS),
      initAsync: false,
      nsSeparator: false,
      returnNull: false,
      // Svelte escapes text for the DOM, notifications and the tray are plain text: nothing to escape here.
      // Values are never interpolated again (skipOnVariables), so a context named "{{x}}" stays as written.
      interpolation: { escapeValue: false, skipOnVariables: true },
    })
    .catch(() => undefined);
  if (!inst.isInitialized) throw new Error('the message catalogs could not be loaded');
  shared = inst;
  return inst;
}

const cache = new Map<Locale, Translator>();

export function translator(locale: Locale): Translator {
  const hit = cache.get(locale);
  if (hit) return hit;
  const fixed = engine().getFixedT(locale);
  const numbers = new Intl.NumberFormat(locale);
  const made: Translator = {
    locale,
    // Values go in `replace`, never beside i18next's own options: a value named like one (`context`,
    // `lng`, `ns`, `defaultValue`…) would change the lookup — a context named "one" picked the singular.
    // Only `count` is also given as the option it is, to choose the plural form.
    t: (key, vars) =>
      fixed(
        key,
        vars
          ? { replace: { ...vars }, ...(typeof vars.count === 'number' ? { count: vars.count } : {}) }
          : undefined,
      ) as string,
    number: (n, options) => (options ? new Intl.NumberFormat(locale, options) : numbers).format(n),
    list: (items, type = 'conjunction') => new Intl.ListFormat(locale, { type }).format(items),
    dateTime: (ms, options) => new Intl.DateTimeFormat(locale, options).format(ms),
    relative: (value, unit, numeric = 'always') =>
      new Intl.RelativeTimeFormat(locale, { numeric }).format(value, unit),
  };
  cache.set(locale, made);
  return made;
}
