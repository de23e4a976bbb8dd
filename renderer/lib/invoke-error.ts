/**
 * The one way the window reads a rejected invoke: both bridges (Electron's preload, the web bridge)
 * reject with `{kind, message, words?}`; anything else (a bug in the window itself) is kind 'failed'
 * with its message. No prefix is stripped: the host's sentence arrives as it was written.
 */
import { type ErrorInfo, toErrorInfo } from '../../common/errors.ts';
import type { MessageKey, MessageVars } from '../../common/i18n/catalog-types.ts';
import { wordsText } from '../../common/i18n/words-text.ts';

type T = (key: MessageKey, vars?: MessageVars) => string;

export function invokeError(e: unknown): ErrorInfo {
  return toErrorInfo(e, 'failed');
}

/** A refusal in the window's language: from its facts when the host gave them, else its sentence. */
export function errorInfoText(e: ErrorInfo, t: T): string {
  return (e.words && wordsText(e.words, t)) ?? e.message;
}

/** The sentence of a rejected invoke, in the window's language where the host gave its facts. */
export function invokeErrorText(e: unknown, t: T): string {
  return errorInfoText(invokeError(e), t);
}
