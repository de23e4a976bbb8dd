/**
 * The window's language, reactive: `t('tabs.nodes')` in a template re-renders when the language setting
 * or the browser's languages change, without a reload. The words come from common/i18n (the same
 * catalogs the tray and notifications use).
 */
import type { MessageKey, MessageVars } from '../../common/i18n/catalog-types.ts';
import { effectiveLocale, type LanguageSetting, type Locale } from '../../common/i18n/locales.ts';
import { type Translator, translator } from '../../common/i18n/translator.ts';

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  const langs = navigator.languages;
  return langs && langs.length > 0 ? [...langs] : navigator.language ? [navigator.language] : [];
}

class I18n {
  #setting = $state<LanguageSetting>('auto');
  #preferred = $state.raw<readonly string[]>(browserLanguages());
  #tr: Translator = $derived(translator(effectiveLocale(this.#setting, this.#preferred)));
  #system: Locale = $derived(effectiveLocale('auto', this.#preferred));

  /** The locale in effect. */
  get locale(): Locale {
    return this.#tr.locale;
  }
  /** What 'auto' resolves to: the browser's (in Electron, the OS's) first language we have. */
  get systemLocale(): Locale {
    return this.#system;
  }
  get setting(): LanguageSetting {
    return this.#setting;
  }
  /** The whole translator (numbers, lists, dates) for the locale in effect. */
  get tr(): Translator {
    return this.#tr;
  }
  setLanguage(setting: LanguageSetting): void {
    this.#setting = setting;
  }
  /** Re-reads navigator.languages (on the window's `languagechange` event). */
  refreshPreferred(): void {
    this.#preferred = browserLanguages();
  }
}

export const i18n = new I18n();

/** The message for a key in the window's language. */
export function t(key: MessageKey, vars?: MessageVars): string {
  return i18n.tr.t(key, vars);
}
