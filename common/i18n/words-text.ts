/**
 * Pure: refusal facts of any area (`Words`, common/words.ts) in the window's language, or in English for
 * the logs, the CLI and the answer's sentence (`wordsEnglish`): one function per area, picked by the
 * code (codes are unique across areas). Null when the facts name a sub-code this version does not know;
 * the caller then shows the English sentence that came with them.
 */

import type { BridgeWords } from '../bridge-words.ts';
import type { ErrorKind } from '../errors.ts';
import { WordedError } from '../errors.ts';
import type { ForwardWords } from '../forward-words.ts';
import { FORWARD_WORDS_VALUES } from '../forward-words.ts';
import { KUBECONFIG_WORDS_VALUES, type KubeconfigWords } from '../kubeconfig-words.ts';
import { SETTINGS_WORDS_VALUES, type SettingsWords } from '../settings-words.ts';
import type { Words } from '../words.ts';
import type { MessageKey, MessageVars } from './catalog-types.ts';
import { forwardWordsText } from './forward-words-text.ts';
import { kubeconfigWordsText } from './kubeconfig-words-text.ts';
import { settingsWordsText } from './settings-words-text.ts';
import { type Translator, translator } from './translator.ts';

type T = (key: MessageKey, vars?: MessageVars) => string;

const isForward = (w: Words): w is ForwardWords => Object.hasOwn(FORWARD_WORDS_VALUES, w.code);
const isKubeconfig = (w: Words): w is KubeconfigWords => Object.hasOwn(KUBECONFIG_WORDS_VALUES, w.code);

const isSettings = (w: Words): w is SettingsWords => Object.hasOwn(SETTINGS_WORDS_VALUES, w.code);

function bridgeWordsText(w: BridgeWords, t: T): string {
  switch (w.code) {
    case 'bridgeNoAnswer':
      return t('bridgeWords.noAnswer');
    case 'bridgeHttp':
      return t('bridgeWords.http', { status: String(w.status) });
    case 'bridgeUnexpected':
      return t('bridgeWords.unexpected');
    case 'bridgeUnknownChannel':
      return t('bridgeWords.unknownChannel', { channel: w.channel });
  }
}

export function wordsText(w: Words, t: T): string | null {
  if (isForward(w)) return forwardWordsText(w, t);
  if (isKubeconfig(w)) return kubeconfigWordsText(w, t);
  if (isSettings(w)) return settingsWordsText(w, t);
  return bridgeWordsText(w, t);
}

let english: Translator | null = null;

/** The English of words made in this process (every code is known here). */
export function wordsEnglish(w: Words): string {
  english ??= translator('en');
  return wordsText(w, (key, vars) => (english as Translator).t(key, vars)) ?? w.code;
}

/** A refusal to throw: its facts, their English as its message (with `detail` after it, for logs and the CLI). */
export function worded(w: Words, kind: ErrorKind = 'bad-request', detail = ''): WordedError {
  return new WordedError(w, detail === '' ? wordsEnglish(w) : `${wordsEnglish(w)} (${detail})`, kind);
}
