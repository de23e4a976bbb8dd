/** For tests: one `SettingsWords` of every code (typed per code), and the write failures' variants. */
import type { SettingsWords, SettingsWordsCode } from './settings-words.ts';

export const SETTINGS_WORDS_SAMPLES: {
  readonly [C in SettingsWordsCode]: Extract<SettingsWords, { code: C }>;
} = {
  settingsInvalid: { code: 'settingsInvalid', fields: 'alertRules.holdDownMs' },
  settingsCredential: { code: 'settingsCredential', field: 'pinnedContexts.0' },
  settingsUnknown: { code: 'settingsUnknown', fields: 'version' },
  settingsNotObject: { code: 'settingsNotObject' },
  settingsTooLarge: { code: 'settingsTooLarge', size: '9.1 MiB', max: '8 MiB' },
  settingsSaveFailed: { code: 'settingsSaveFailed', errno: 'EIO' },
};

export function allSettingsWords(): SettingsWords[] {
  const errnos = ['EACCES', 'ENOSPC'].map((errno) => ({ code: 'settingsSaveFailed' as const, errno }));
  return [...Object.values(SETTINGS_WORDS_SAMPLES), ...errnos];
}
