/**
 * Why the desktop app refuses a forwarding target or its secret, why a target cannot run, or why its
 * secrets cannot be kept: as facts (a code and its values) that the window words in its language and
 * main words in English for logs (both from `forwarding.words.*`, common/i18n/forward-words-text.ts).
 * The values name a target id, its kind, a URL's scheme and host, a file's base name: never a secret.
 */
import type { ForwardKind, NtfySecretFault } from './forwarding.ts';

/** Why a target's URL was refused (main/forward/endpoint.ts parseEndpoint). */
export type EndpointFault =
  | 'tooLong'
  | 'notUrl'
  | 'scheme'
  | 'credentials'
  | 'fragment'
  | 'ntfyQuery'
  | 'ntfyTopic';

/** Why the vault file could not be used (main/electron/secret-vault.ts). */
export type VaultFileFault = 'tooLarge' | 'unreadable' | 'notJson' | 'noList' | 'badEntry';

export type ForwardWords =
  /** safeStorage says encryption is not available. */
  | { code: 'keychainMissing' }
  /** Linux without a secret service: Electron would encrypt with a hard-coded password. */
  | { code: 'keychainBasicText' }
  | { code: 'secretUnreadable'; id: string }
  | { code: 'secretUndecryptable'; id: string }
  | { code: 'vaultMovedAside'; why: VaultFileFault; aside: string }
  | { code: 'vaultUnusable'; why: VaultFileFault }
  /** `errno`: the file system's code (EACCES, ENOSPC …). */
  | { code: 'vaultSaveFailed'; errno: string }
  | { code: 'badId' }
  | { code: 'tooMany'; max: number }
  | { code: 'noTarget'; id: string }
  | { code: 'secretTooLong'; id: string }
  /** The secret's parts did not pass the contract's schema (a part longer than it takes). */
  | { code: 'secretInvalid' }
  | { code: 'secretEmpty'; id: string }
  /** Parts this kind does not take (ntfy: a URL; a webhook: anything but its signing key …). */
  | { code: 'secretParts'; id: string; kind: ForwardKind }
  | { code: 'ntfySecret'; id: string; fault: NtfySecretFault }
  /** A Slack or Discord URL given in the settings rather than as the secret. */
  | { code: 'urlIsSecret'; id: string; kind: ForwardKind }
  | { code: 'topicNotNtfy'; id: string }
  | { code: 'webhookQuery'; id: string }
  | { code: 'controlChars'; id: string }
  | { code: 'badTopic'; id: string }
  /** A Slack or Discord target whose secret (its URL) is not set. */
  | { code: 'urlNotSet'; id: string; kind: ForwardKind }
  /** `host`: the URL's scheme and host ('' when it is no URL). */
  | { code: 'badUrl'; id: string; kind: ForwardKind; fault: EndpointFault; host: string };

export type ForwardWordsCode = ForwardWords['code'];

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
