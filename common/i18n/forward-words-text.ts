/**
 * Pure: forwarding refusals and problems (`ForwardWords`) worded from their facts, in the window's
 * language or, with `translator('en').t`, in the English main logs and answers beside them (the two
 * come from the same keys, `forwarding.words.*`, so they cannot drift). Sub-codes are looked up in
 * fixed tables: words from another process cannot name another catalog key; one this version does not
 * know gives null, and the caller shows the English sentence that came with it.
 */
import { own } from '../dict.ts';
import { WordedError } from '../errors.ts';
import type { ForwardWords } from '../forward-words.ts';
import { FORWARD_URL_MAX, type ForwardKind } from '../forwarding.ts';
import type { MessageKey, MessageVars } from './catalog-types.ts';
import { type Translator, translator } from './translator.ts';

type T = (key: MessageKey, vars?: MessageVars) => string;

const VAULT_WHY: Readonly<Record<string, MessageKey>> = {
  tooLarge: 'forwarding.words.vaultWhy.tooLarge',
  unreadable: 'forwarding.words.vaultWhy.unreadable',
  notJson: 'forwarding.words.vaultWhy.notJson',
  noList: 'forwarding.words.vaultWhy.noList',
  badEntry: 'forwarding.words.vaultWhy.badEntry',
};

const URL_FAULT: Readonly<Record<string, MessageKey>> = {
  tooLong: 'forwarding.words.url.tooLong',
  notUrl: 'forwarding.words.url.notUrl',
  scheme: 'forwarding.words.url.scheme',
  credentials: 'forwarding.words.url.credentials',
  fragment: 'forwarding.words.url.fragment',
  ntfyQuery: 'forwarding.words.url.ntfyQuery',
  ntfyTopic: 'forwarding.words.url.ntfyTopic',
};

const NTFY_FAULT: Readonly<Record<string, MessageKey>> = {
  tokenOrUser: 'forwarding.secret.tokenOrUser',
  userNeedsPassword: 'forwarding.secret.userNeedsPassword',
  userColon: 'forwarding.secret.userColon',
  tokenChars: 'forwarding.secret.tokenChars',
};

const KINDS: ReadonlySet<string> = new Set<ForwardKind>(['ntfy', 'webhook', 'slack', 'discord']);

function secretParts(kind: string): MessageKey | null {
  if (kind === 'ntfy') return 'forwarding.words.secretPartsNtfy';
  if (kind === 'webhook') return 'forwarding.words.secretPartsWebhook';
  return kind === 'slack' || kind === 'discord' ? 'forwarding.words.secretPartsUrl' : null;
}

/** The sentence in `t`'s language, or null when the facts are not ones this version knows. */
export function forwardWordsText(w: ForwardWords, t: T): string | null {
  if ('kind' in w && !KINDS.has(w.kind)) return null;
  switch (w.code) {
    case 'keychainMissing':
    case 'keychainBasicText':
    case 'badId':
      return t(`forwarding.words.${w.code}`);
    case 'secretInvalid':
      return t('forwarding.words.secretInvalid', { max: FORWARD_URL_MAX });
    case 'secretUnreadable':
    case 'secretUndecryptable':
    case 'noTarget':
    case 'secretTooLong':
    case 'secretEmpty':
    case 'topicNotNtfy':
    case 'webhookQuery':
    case 'controlChars':
    case 'badTopic':
      return t(`forwarding.words.${w.code}`, { id: w.id });
    case 'urlIsSecret':
    case 'urlNotSet':
      return t(`forwarding.words.${w.code}`, { id: w.id, kind: w.kind });
    case 'vaultMovedAside':
    case 'vaultUnusable': {
      const why = own(VAULT_WHY, w.why);
      if (!why) return null;
      const vars = { why: t(why), ...(w.code === 'vaultMovedAside' ? { aside: w.aside } : {}) };
      return t(`forwarding.words.${w.code}`, vars);
    }
    case 'vaultSaveFailed':
      return t('forwarding.words.vaultSaveFailed', { errno: w.errno });
    case 'tooMany':
      return t('forwarding.words.tooMany', { max: w.max });
    case 'secretParts': {
      const key = secretParts(w.kind);
      return key && t(key, { id: w.id, kind: w.kind });
    }
    case 'ntfySecret': {
      const key = own(NTFY_FAULT, w.fault);
      return key ? t('forwarding.words.about', { id: w.id, text: t(key) }) : null;
    }
    case 'badUrl': {
      const key = own(URL_FAULT, w.fault);
      return key === undefined
        ? null
        : t(key, { id: w.id, kind: w.kind, host: w.host, max: FORWARD_URL_MAX });
    }
  }
}

let english: Translator | null = null;

/** The English of words made in this process, for logs and answers (every code is known here). */
export function forwardWordsEnglish(w: ForwardWords): string {
  english ??= translator('en');
  return forwardWordsText(w, (key, vars) => (english as Translator).t(key, vars)) ?? w.code;
}

/** A refusal to throw: its facts, and their English as its message. */
export function refusal(w: ForwardWords): WordedError {
  return new WordedError(w, forwardWordsEnglish(w));
}
