/**
 * Why the host refused to save settings (main/settings/store.ts, validate.ts, write-cap.ts), as facts
 * the window words in its language (common/i18n/settings-words-text.ts, keys `settingsWords.*`), the
 * logs in English from the same keys. `fields`: dotted field names joined with ", " (names, not
 * sentences); `errno`: the file system's code. Codes start with `settings` (unique across areas).
 */
export type SettingsWords =
  /** Fields the schema refused (a value the form's own checks let through). */
  | { code: 'settingsInvalid'; fields: string }
  | { code: 'settingsCredential'; field: string }
  | { code: 'settingsUnknown'; fields: string }
  | { code: 'settingsNotObject' }
  /** The write cap: the document would be larger than a settings file may be, even without the alert log. */
  | { code: 'settingsTooLarge'; size: string; max: string }
  | { code: 'settingsSaveFailed'; errno: string };

export type SettingsWordsCode = SettingsWords['code'];

export const SETTINGS_WORDS_VALUES: Readonly<Record<SettingsWordsCode, readonly string[]>> = {
  settingsInvalid: ['fields'],
  settingsCredential: ['field'],
  settingsUnknown: ['fields'],
  settingsNotObject: [],
  settingsTooLarge: ['size', 'max'],
  settingsSaveFailed: ['errno'],
};
