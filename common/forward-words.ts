/**
 * The check of forwarding refusals as facts (`ForwardWords`, declared in common/forwarding.ts beside the
 * view that carries them) where they arrive from another process: `asErrorInfo` keeps only well-formed
 * ones. The window words them in its language, main in English (common/i18n/forward-words-text.ts).
 */
import type { ForwardWords, ForwardWordsCode } from './forwarding.ts';

// The union lives in forwarding.ts beside the view that carries it (one-way imports); named here too.
export type { EndpointFault, ForwardWords, ForwardWordsCode, VaultFileFault } from './forwarding.ts';

/** Each code's values, for the check where words arrive from another process. */
const VALUES: Readonly<Record<ForwardWordsCode, readonly string[]>> = {
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

const VALUE_MAX = 300;

/**
 * Whether `v` has the shape of words: a known code with exactly its values, each a short string or a
 * number. Sub-codes (fault, why, kind) are looked up in fixed tables where they are worded.
 */
export function isForwardWords(v: unknown): v is ForwardWords {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  const code = o.code;
  if (typeof code !== 'string' || !Object.hasOwn(VALUES, code)) return false;
  const names = VALUES[code as ForwardWordsCode];
  if (Object.keys(o).length !== names.length + 1) return false;
  return names.every((n) => {
    const x = Object.hasOwn(o, n) ? o[n] : undefined;
    return (typeof x === 'string' && x.length <= VALUE_MAX) || (typeof x === 'number' && Number.isFinite(x));
  });
}
