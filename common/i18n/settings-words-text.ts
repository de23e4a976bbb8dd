/**
 * Pure: why the host refused to save settings (`SettingsWords`) in the window's language, or in English
 * for logs (the same keys, `settingsWords.*`). A failed write is worded by what its file-system code
 * means to the user (no permission, disk full), with the code itself for the rest.
 */
import type { SettingsWords } from '../settings-words.ts';
import type { MessageKey, MessageVars } from './catalog-types.ts';

type T = (key: MessageKey, vars?: MessageVars) => string;

const SAVE_ERRNO: Readonly<Record<string, MessageKey>> = {
  EACCES: 'settingsWords.saveDenied',
  EPERM: 'settingsWords.saveDenied',
  EROFS: 'settingsWords.saveDenied',
  ENOSPC: 'settingsWords.saveFull',
  EDQUOT: 'settingsWords.saveFull',
};

export function settingsWordsText(w: SettingsWords, t: T): string | null {
  switch (w.code) {
    case 'settingsInvalid':
      return t('settingsWords.invalid', { fields: w.fields });
    case 'settingsCredential':
      return t('settingsWords.credential', { field: w.field });
    case 'settingsUnknown':
      return t('settingsWords.unknown', { fields: w.fields });
    case 'settingsNotObject':
      return t('settingsWords.notObject');
    case 'settingsTooLarge':
      return t('settingsWords.tooLarge', { size: w.size, max: w.max });
    case 'settingsSaveFailed': {
      const key = Object.hasOwn(SAVE_ERRNO, w.errno) ? SAVE_ERRNO[w.errno] : undefined;
      return t(key ?? 'settingsWords.saveFailed', { errno: w.errno });
    }
  }
}
