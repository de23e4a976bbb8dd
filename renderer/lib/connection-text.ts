/** A connection's sentence in the window's language: ours from its catalog key, otherwise as main wrote it. */
import type { ConnectionState } from '../../common/connection.ts';
import type { Translator } from '../../common/i18n/translator.ts';

export function connectionMessage(c: ConnectionState, tr: Translator): string | null {
  return c.words ? tr.t(c.words.key, c.words.vars) : c.message;
}
