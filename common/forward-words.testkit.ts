/**
 * For tests: one `ForwardWords` of every code, as the vault, the shell and the host make them (typed
 * per code, so a new code without a sample here does not compile).
 */
import type { ForwardWords, ForwardWordsCode } from './forward-words.ts';

export const FORWARD_WORDS_SAMPLES: { readonly [C in ForwardWordsCode]: Extract<ForwardWords, { code: C }> } =
  {
    keychainMissing: { code: 'keychainMissing' },
    keychainBasicText: { code: 'keychainBasicText' },
    secretUnreadable: { code: 'secretUnreadable', id: 'phone' },
    secretUndecryptable: { code: 'secretUndecryptable', id: 'phone' },
    vaultMovedAside: {
      code: 'vaultMovedAside',
      why: 'notJson',
      aside: 'forward-secrets.json.unreadable-41-0',
    },
    vaultUnusable: { code: 'vaultUnusable', why: 'unreadable' },
    vaultSaveFailed: { code: 'vaultSaveFailed', errno: 'EACCES' },
    badId: { code: 'badId' },
    tooMany: { code: 'tooMany', max: 16 },
    noTarget: { code: 'noTarget', id: 'phone' },
    secretTooLong: { code: 'secretTooLong', id: 'phone' },
    secretInvalid: { code: 'secretInvalid' },
    secretEmpty: { code: 'secretEmpty', id: 'phone' },
    secretParts: { code: 'secretParts', id: 'phone', kind: 'ntfy' },
    ntfySecret: { code: 'ntfySecret', id: 'phone', fault: 'userNeedsPassword' },
    urlIsSecret: { code: 'urlIsSecret', id: 'chat', kind: 'slack' },
    topicNotNtfy: { code: 'topicNotNtfy', id: 'hook' },
    webhookQuery: { code: 'webhookQuery', id: 'hook' },
    controlChars: { code: 'controlChars', id: 'hook' },
    badTopic: { code: 'badTopic', id: 'phone' },
    urlNotSet: { code: 'urlNotSet', id: 'chat', kind: 'discord' },
    badUrl: { code: 'badUrl', id: 'phone', kind: 'ntfy', fault: 'credentials', host: 'https://ntfy.example' },
  };

/** Every sample, and the variants of the codes whose sub-codes pick another sentence. */
export function allForwardWords(): ForwardWords[] {
  const faults = [
    'tooLong',
    'notUrl',
    'scheme',
    'credentials',
    'fragment',
    'ntfyQuery',
    'ntfyTopic',
  ] as const;
  const why = ['tooLarge', 'unreadable', 'notJson', 'noList', 'badEntry'] as const;
  const ntfy = ['tokenOrUser', 'userNeedsPassword', 'userColon', 'tokenChars'] as const;
  const all: ForwardWords[] = [
    ...Object.values(FORWARD_WORDS_SAMPLES),
    // Before the URL parses, its host is not known (parseEndpoint gives '').
    ...faults.map(
      (fault): ForwardWords => ({
        ...FORWARD_WORDS_SAMPLES.badUrl,
        fault,
        host: ['tooLong', 'notUrl', 'scheme'].includes(fault) ? '' : FORWARD_WORDS_SAMPLES.badUrl.host,
      }),
    ),
    ...why.map((w): ForwardWords => ({ ...FORWARD_WORDS_SAMPLES.vaultMovedAside, why: w })),
    ...ntfy.map((fault): ForwardWords => ({ ...FORWARD_WORDS_SAMPLES.ntfySecret, fault })),
    ...(['webhook', 'slack'] as const).map(
      (kind): ForwardWords => ({ ...FORWARD_WORDS_SAMPLES.secretParts, kind }),
    ),
  ];
  return [...new Map(all.map((w) => [JSON.stringify(w), w])).values()];
}
