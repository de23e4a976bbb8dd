/**
 * The check of forwarding refusals as facts (`ForwardWords`, declared in common/forwarding.ts beside the
 * view that carries them) where they arrive from another process: `asErrorInfo` keeps only well-formed
 * ones. The window words them in its language, main in English (common/i18n/forward-words-text.ts).
 */
import type { ForwardWords, ForwardWordsCode } from './forwarding.ts';
import { hasWordsShape } from './words-shape.ts';

// The union lives in forwarding.ts beside the view that carries it (one-way imports); named here too.
export type { EndpointFault, ForwardWords, ForwardWordsCode, VaultFileFault } from './forwarding.ts';

/** Each code's values, for the check where words arrive from another process. */
export const FORWARD_WORDS_VALUES: Readonly<Record<ForwardWordsCode, readonly string[]>> = {
  keychainMissing: [],
  keychainBasicText: [],
  secretUnreadable: ['id'],
  secretUndecryptable: ['id'],
  vaultMovedAside: ['why', 'aside'],
  vaultUnusable: ['why'],
  vaultSaveFailed: ['errno'],
  badId: [],
  tooMany: ['max'],
  noTarget: ['id'],
  secretTooLong: ['id'],
  secretInvalid: [],
  secretEmpty: ['id'],
  secretParts: ['id', 'kind'],
  ntfySecret: ['id', 'fault'],
  urlIsSecret: ['id', 'kind'],
  topicNotNtfy: ['id'],
  webhookQuery: ['id'],
  controlChars: ['id'],
  badTopic: ['id'],
  urlNotSet: ['id', 'kind'],
  badUrl: ['id', 'kind', 'fault', 'host'],
};

/**
 * Whether `v` has the shape of forwarding words: a known code with exactly its values, each a short
 * string or a number (common/words-shape.ts).
 */
export function isForwardWords(v: unknown): v is ForwardWords {
  return hasWordsShape(v, FORWARD_WORDS_VALUES);
}
