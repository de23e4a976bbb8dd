/**
 * The languages of the window, tray and notifications, and how one is chosen: the user's setting, or
 * the first of the OS's (Electron) or browser's preferred languages that we have a catalog for.
 */

/** The catalogs we ship, in the order the settings window lists them. */
export const LOCALES = ['en', 'zh-CN', 'ko', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];

/** The `language` setting: follow the system, or one catalog. */
export type LanguageSetting = 'auto' | Locale;

export const DEFAULT_LOCALE: Locale = 'en';

/** Each language's own name, as its speakers write it (the settings window shows these untranslated). */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = Object.freeze({
  en: 'English',
  'zh-CN': '简体中文',
  ko: '한국어',
  ja: '日本語',
});

export function isLocale(v: unknown): v is Locale {
  return typeof v === 'string' && (LOCALES as readonly string[]).includes(v);
}

export function isLanguageSetting(v: unknown): v is LanguageSetting {
  return v === 'auto' || isLocale(v);
}

/**
 * The catalog for one BCP 47 tag, or null: `ko-KR` → ko, `ja-JP` → ja, `en-GB` → en. Chinese maps to
 * our Simplified catalog only where it is written in Simplified script (zh, zh-CN, zh-SG, zh-Hans-*);
 * zh-TW / zh-HK / zh-Hant readers get the next language they listed instead.
 */
export function matchLocale(tag: string): Locale | null {
  if (typeof tag !== 'string' || tag.length > 64) return null;
  let parts: string[];
  try {
    parts = Intl.getCanonicalLocales(tag.replace(/_/g, '-'))[0]?.split('-') ?? [];
  } catch {
    return null;
  }
  const lang = parts[0]?.toLowerCase();
  if (lang === 'en') return 'en';
  if (lang === 'ko') return 'ko';
  if (lang === 'ja') return 'ja';
  if (lang !== 'zh') return null;
  const rest = parts.slice(1).map((p) => p.toLowerCase());
  if (rest.includes('hant') || rest.includes('tw') || rest.includes('hk') || rest.includes('mo')) return null;
  return 'zh-CN';
}

/** The first of the preferred languages (most preferred first) we have a catalog for; English otherwise. */
export function pickLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred.slice(0, 32)) {
    const found = matchLocale(tag);
    if (found) return found;
  }
  return DEFAULT_LOCALE;
}

/** The locale in effect: the setting when it names one, else the system's preferred languages. */
export function effectiveLocale(setting: LanguageSetting, preferred: readonly string[]): Locale {
  return setting === 'auto' ? pickLocale(preferred) : setting;
}
