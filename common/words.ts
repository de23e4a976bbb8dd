/**
 * Refusal facts ("words") of every area, as `ErrorInfo.words` carries them from the host to the window:
 * forwarding (common/forward-words.ts), kubectl's context (common/kubeconfig-words.ts) and the settings
 * file (common/settings-words.ts), and the window's own bridges (common/bridge-words.ts). Codes are unique across areas, so the code alone says whose words
 * they are; common/i18n/words-text.ts words each area with its own function.
 */
import { BRIDGE_WORDS_VALUES, type BridgeWords } from './bridge-words.ts';
import { FORWARD_WORDS_VALUES, type ForwardWords } from './forward-words.ts';
import { KUBECONFIG_WORDS_VALUES, type KubeconfigWords } from './kubeconfig-words.ts';
import { SETTINGS_WORDS_VALUES, type SettingsWords } from './settings-words.ts';
import { hasWordsShape } from './words-shape.ts';

export type Words = ForwardWords | KubeconfigWords | SettingsWords | BridgeWords;

const ALL: Readonly<Record<string, readonly string[]>> = {
  ...FORWARD_WORDS_VALUES,
  ...KUBECONFIG_WORDS_VALUES,
  ...SETTINGS_WORDS_VALUES,
  ...BRIDGE_WORDS_VALUES,
};

/** Whether `v` is well-formed words of any area (a code this version knows, exactly its values). */
export function isWords(v: unknown): v is Words {
  return hasWordsShape(v, ALL);
}

/** The codes of each area, for the test that they never meet. */
export const WORDS_AREAS = {
  forwarding: Object.keys(FORWARD_WORDS_VALUES),
  kubeconfig: Object.keys(KUBECONFIG_WORDS_VALUES),
  settings: Object.keys(SETTINGS_WORDS_VALUES),
  bridge: Object.keys(BRIDGE_WORDS_VALUES),
} as const;
