/** The language of the tray and notifications: the `language` setting, else the OS's preferred languages. */
import { app } from 'electron';
import { effectiveLocale, type LanguageSetting } from '../../common/i18n/locales.ts';
import { type Translator, translator } from '../../common/i18n/translator.ts';

/** The OS's preferred languages as Electron reports them, most preferred first. */
export function systemLanguages(): string[] {
  const preferred = app.getPreferredSystemLanguages();
  return preferred.length > 0 ? preferred : [app.getLocale()];
}

export function desktopTranslator(setting: LanguageSetting): Translator {
  return translator(effectiveLocale(setting, systemLanguages()));
}
