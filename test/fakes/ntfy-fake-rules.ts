/**
 * The rules of the fake ntfy server (ntfy-fake.ts), each as recorded from a real ntfy 2.11 in
 * ../shared/ntfy: error codes and texts, topic names, priorities, header aliases and encodings, the
 * field order of a stored message, `since`. Pure, so each rule reads next to its transcript step.
 */

export interface NtfyError {
  code: number;
  http: number;
  error: string;
  link?: string;
}

const AUTH_LINK = 'https://ntfy.sh/docs/publish/#authentication';
const LIMIT_LINK = 'https://ntfy.sh/docs/publish/#limitations';
/** 02 steps 1-32: the error bodies, texts and links exactly as the server sent them. */
export const ERRORS = {
  unauthorized: { code: 40101, http: 401, error: 'unauthorized', link: AUTH_LINK },
  forbidden: { code: 40301, http: 403, error: 'forbidden', link: AUTH_LINK },
  notFound: { code: 40401, http: 404, error: 'page not found' },
  priority: {
    code: 40007,
    http: 400,
    error: 'invalid priority parameter',
    link: 'https://ntfy.sh/docs/publish/#message-priority',
  },
  since: {
    code: 40008,
    http: 400,
    error: 'invalid since parameter',
    link: 'https://ntfy.sh/docs/subscribe/api/#fetch-cached-messages',
  },
  topicInvalid: { code: 40009, http: 400, error: 'invalid request: topic invalid' },
  topicNotAllowed: { code: 40010, http: 400, error: 'invalid request: topic name is not allowed' },
  attachments: {
    code: 40014,
    http: 400,
    error: 'invalid request: attachments not allowed',
    link: 'https://ntfy.sh/docs/config/#attachments',
  },
  json: { code: 40024, http: 400, error: 'invalid request: request body must be valid JSON' },
  jsonTooLarge: { code: 41303, http: 413, error: 'JSON body too large' },
  tooManyRequests: { code: 42901, http: 429, error: 'limit reached: too many requests', link: LIMIT_LINK },
  tooManyAuthFailures: {
    code: 42909,
    http: 429,
    error: 'limit reached: too many auth failures',
    link: LIMIT_LINK,
  },
} as const satisfies Record<string, NtfyError>;

/** 02 step 22: the one action rule the transcripts show, with its detailed text. */
export function actionError(detail: string): NtfyError {
  return {
    code: 40018,
    http: 400,
    error: `invalid request: actions invalid; ${detail}`,
    link: 'https://ntfy.sh/docs/publish/#action-buttons',
  };
}

export const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
/** 02 step 10: names the router keeps for itself. */
export const RESERVED_TOPICS = new Set([
  'docs',
  'static',
  'file',
  'app',
  'account',
  'settings',
  'signup',
  'login',
  'v1',
]);

/** message-size-limit 4K: a body of 4096 bytes or more is refused (02 steps 11-15). */
export const MESSAGE_BYTES_LIMIT = 4096;
/** JSON to "/": 2 x the message limit, and 8192 itself is too large (02 step 16). */
export const JSON_BYTES_LIMIT = 8192;

const PRIORITY_WORDS: Readonly<Record<string, number>> = {
  min: 1,
  low: 2,
  default: 3,
  high: 4,
  max: 5,
  urgent: 5,
};

/** A header or query priority: 1-5 or a word in any case; empty is "not set"; anything else is 40007. */
export function headerPriority(value: string | null): number | null | 'invalid' {
  if (value === null || value === '') return null;
  const v = value.trim().toLowerCase();
  if (/^[1-5]$/.test(v)) return Number(v);
  return PRIORITY_WORDS[v] ?? 'invalid';
}

/**
 * A header value as ntfy reads it: raw UTF-8 bytes pass through (Node hands them over as latin1), and
 * RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) are decoded (01 steps 6-8).
 */
export function headerText(raw: string): string {
  const utf8 = Buffer.from(raw, 'latin1').toString('utf8');
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  if (!word.test(utf8)) return utf8;
  // Whitespace between two encoded words is dropped, as mime.WordDecoder does.
  return utf8
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(word, (_all, charset: string, enc: string, text: string) => {
      const bytes =
        enc.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text
                .replaceAll('_', ' ')
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) =>
                  String.fromCharCode(Number.parseInt(h, 16)),
                ),
              'latin1',
            );
      return bytes.toString(/^utf-?8$/i.test(charset) ? 'utf8' : 'latin1');
    });
}

/** True when the bytes are valid UTF-8 (a non-UTF-8 body would be an attachment: 40014, 02 step 27). */
export function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export interface Action {
  action: string;
  label: string;
  url?: string;
}

export interface StoredMessage {
  id: string;
  time: number;
  expires: number;
  event: 'message';
  topic: string;
  title?: string;
  message: string;
  priority?: number;
  tags?: string[];
  click?: string;
  actions?: (Action & { id: string; clear: false })[];
  content_type?: 'text/markdown';
}

/** The stored message with its keys in the server's order, unset and empty ones left out (01 step 1). */
export function ordered(m: StoredMessage): string {
  const out: Record<string, unknown> = {
    id: m.id,
    time: m.time,
    expires: m.expires,
    event: m.event,
    topic: m.topic,
  };
  if (m.title) out.title = m.title;
  out.message = m.message;
  if (m.priority !== undefined) out.priority = m.priority;
  if (m.tags && m.tags.length > 0) out.tags = m.tags;
  if (m.click) out.click = m.click;
  if (m.actions && m.actions.length > 0)
    out.actions = m.actions.map((a) => ({
      id: a.id,
      action: a.action,
      label: a.label,
      clear: a.clear,
      ...(a.url ? { url: a.url } : {}),
    }));
  if (m.content_type) out.content_type = m.content_type;
  return JSON.stringify(out);
}

/**
 * `since` as 2.11 takes it: all, a message id, a unix time, or a duration (30s, 10m, 1h, 2d); absent
 * is all (01 step 11). Anything else, `latest` included, is 40008 (02 step 29).
 */
export function sinceFilter(
  since: string | null,
  ids: readonly string[],
  nowSec: number,
): ((m: StoredMessage, index: number) => boolean) | 'invalid' {
  if (since === null || since === 'all') return () => true;
  if (/^\d{1,12}$/.test(since)) {
    const t = Number(since);
    return (m) => m.time >= t;
  }
  const d = /^(\d{1,9})([smhd])$/.exec(since);
  if (d) {
    const unit = { s: 1, m: 60, h: 3600, d: 86400 }[d[2] as 's' | 'm' | 'h' | 'd'];
    const from = nowSec - Number(d[1]) * unit;
    return (m) => m.time >= from;
  }
  const at = ids.indexOf(since);
  if (/^[A-Za-z0-9]{12}$/.test(since)) return (_m, i) => at === -1 || i > at;
  return 'invalid';
}

/** A token bucket on the fake's clock (the visitor request limiter and the auth-failure limiter). */
export class Bucket {
  #tokens: number;
  #at: number;
  constructor(
    readonly burst: number,
    readonly everyMs: number,
    now: number,
  ) {
    this.#tokens = burst;
    this.#at = now;
  }
  #refill(now: number): void {
    const gained = Math.floor((now - this.#at) / this.everyMs);
    if (gained > 0) {
      this.#tokens = Math.min(this.burst, this.#tokens + gained);
      this.#at += gained * this.everyMs;
    }
    if (this.#tokens === this.burst) this.#at = now;
  }
  allowed(now: number): boolean {
    this.#refill(now);
    return this.#tokens > 0;
  }
  take(now: number): boolean {
    this.#refill(now);
    if (this.#tokens <= 0) return false;
    this.#tokens--;
    return true;
  }
}
