/**
 * Alert forwarding targets as settings, the window and the CLI see them (issue 25): ntfy, a generic
 * webhook, Slack-compatible and Discord incoming webhooks. No secret lives here: a target's URL (an ntfy
 * topic on a public server and a Slack or Discord webhook URL are passwords), token, user/password and
 * signing key are a `ForwardSecret`, kept by the host (safeStorage in the app, a 0600 file or the
 * environment in the CLI) and never sent to the window. What the window shows is `host`.
 */
import { Type } from '@sinclair/typebox';
import type { AlertKind } from './alerts.ts';
import type { Locale } from './i18n/locales.ts';
import { LOCALES } from './i18n/locales.ts';

export const FORWARD_KINDS = ['ntfy', 'webhook', 'slack', 'discord'] as const;
export type ForwardKind = (typeof FORWARD_KINDS)[number];

/** How urgent an alert is, lowest first; a target forwards alerts at or above its minimum. */
export const SEVERITIES = ['low', 'default', 'high', 'urgent'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The table (drop and GPU gone: high; XID: urgent; unreachable: default; recovered: low). */
const SEVERITY_OF: Readonly<Record<AlertKind, Severity>> = Object.freeze({
  'ready-drop': 'high',
  'gpu-gone': 'high',
  'gpus-withdrawn': 'high',
  'gpu-hot': 'high',
  'gpu-xid': 'urgent',
  flapping: 'default',
  unreachable: 'default',
  recovered: 'low',
  reachable: 'low',
  'no-free-gpu': 'default',
  'free-gpu-back': 'low',
});

export function severityOf(kind: AlertKind): Severity {
  return SEVERITY_OF[kind];
}

export function atLeast(severity: Severity, min: Severity): boolean {
  return SEVERITIES.indexOf(severity) >= SEVERITIES.indexOf(min);
}

/**
 * ntfy's topic rule (a topic outside it is a 404 "page not found"), less the names its router keeps for
 * itself (ntfy 2.11's DefaultDisallowedTopics): one check for the window's form, the desktop targets and the CLI's URLs.
 */
const NTFY_TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
const NTFY_RESERVED: ReadonlySet<string> = new Set([
  'docs',
  'static',
  'file',
  'app',
  'metrics',
  'account',
  'settings',
  'signup',
  'login',
  'v1',
]);
export function isNtfyTopic(topic: string): boolean {
  return NTFY_TOPIC.test(topic) && !NTFY_RESERVED.has(topic);
}

/** A target id: names it in `gpu-fleet notify test ID`, in the window and in its queue file. */
export const TARGET_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const FORWARD_TARGETS_MAX = 16;
export const FORWARD_CLUSTERS_MAX = 64;

export interface ForwardTarget {
  id: string;
  kind: ForwardKind;
  /** The endpoint's scheme, host and port only (the path may hold the secret), for display. */
  host: string;
  /** Which clusters (kubeconfig context names) it forwards: every one, or these. */
  clusters: 'all' | string[];
  minSeverity: Severity;
  /** The language of its messages (the CLI's default is English). */
  language: Locale;
  enabled: boolean;
}

/** What a target forwards and how, the same in the window's view and in the settings file. */
const ROUTING_FIELDS = {
  clusters: Type.Union([
    Type.Literal('all'),
    Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: FORWARD_CLUSTERS_MAX }),
  ]),
  minSeverity: Type.Union(SEVERITIES.map((s) => Type.Literal(s))),
  language: Type.Union(LOCALES.map((l) => Type.Literal(l))),
  enabled: Type.Boolean(),
};

export const ForwardTargetSchema = Type.Object(
  {
    id: Type.String({ pattern: TARGET_ID.source }),
    kind: Type.Union(FORWARD_KINDS.map((k) => Type.Literal(k))),
    host: Type.String({ maxLength: 300 }),
    ...ROUTING_FIELDS,
  },
  { additionalProperties: false },
);

/**
 * A target's secret part. `url`: the whole endpoint (ntfy: server and topic). ntfy takes a `token` or a
 * `user` and `password`; a webhook may have an HMAC `signingKey`.
 */
export interface ForwardSecret {
  url: string;
  token?: string;
  user?: string;
  password?: string;
  signingKey?: string;
}

/** The last delivery state of a target, as the window and the CLI show it (words in English, the CLI's). */
export interface ForwardStatus {
  id: string;
  /** Messages waiting (queued or being retried). */
  pending: number;
  /** Messages dropped because the queue was full (oldest first), since start. */
  dropped: number;
  /** The last terminal failure or retry reason, one sentence; null when the last delivery worked. */
  problem: string | null;
  /** Epoch ms of the last delivery that worked. */
  lastDeliveredAt: number | null;
}

/** What the window's Forwarding section shows: the targets (no secret) and how their deliveries go. */
export interface ForwardView {
  targets: ForwardTarget[];
  status: ForwardStatus[];
  /**
   * The desktop app only: the targets as the settings keep them, for the window's form to edit (browser
   * mode and the CLI take theirs from flags and have none).
   */
  editable?: ForwardTargetSetting[];
  /** The desktop app only: the ids whose secret is set (the window sees "set" or "not set", never it). */
  secretSet?: string[];
  /** Why a target does not run (its secret is missing, its URL is refused), per id, as facts. */
  problems?: Record<string, ForwardWords>;
  /**
   * The desktop app only (Electron main adds it): why secrets cannot be kept here (no keychain), shown
   * before anyone types one, and what its vault found wrong when it last read its file.
   */
  vault?: { unavailable: ForwardWords | null; problems: ForwardWords[] };
}

/** How a "Send test" went, in one sentence (English, the host's words; it names the host only). */
export interface ForwardTestResult {
  ok: boolean;
  message: string;
  /** The same as facts, for the window's language. */
  words?: ForwardResultWords;
}

/**
 * A target as the desktop app keeps it in the settings file (issue 25): no secret. `url` is the ntfy
 * server (scheme, host, port, optional path; the topic apart in `topic`) or the webhook's URL, never with
 * a user or password in it; Slack and Discord URLs are themselves secrets, so theirs is '' here and the
 * whole URL is the target's secret (`ForwardSecretInput.url`), kept by Electron main with safeStorage.
 */
export interface ForwardTargetSetting {
  id: string;
  kind: ForwardKind;
  url: string;
  /** ntfy only ('' for the others). */
  topic: string;
  clusters: 'all' | string[];
  minSeverity: Severity;
  language: Locale;
  enabled: boolean;
}

export const FORWARD_URL_MAX = 2048;

export const ForwardTargetSettingSchema = Type.Object(
  {
    id: Type.String({ pattern: TARGET_ID.source }),
    kind: Type.Union(FORWARD_KINDS.map((k) => Type.Literal(k))),
    url: Type.String({ maxLength: FORWARD_URL_MAX }),
    topic: Type.String({ maxLength: 64 }),
    ...ROUTING_FIELDS,
  },
  { additionalProperties: false },
);

/** Which secret parts a kind takes, for the form and for the check where a secret enters. */
export const SECRET_PARTS: Readonly<Record<ForwardKind, readonly (keyof ForwardSecretInput)[]>> = {
  ntfy: ['token', 'user', 'password'],
  webhook: ['signingKey'],
  slack: ['url'],
  discord: ['url'],
};

/**
 * A secret as the window enters it (write-only: it can set or clear one, never read it back). ntfy: a
 * `token`, or a `user` and `password`; webhook: a `signingKey`; Slack and Discord: the webhook `url`.
 */
export interface ForwardSecretInput {
  url?: string;
  token?: string;
  user?: string;
  password?: string;
  signingKey?: string;
}

/** What an ntfy token may hold: an `Authorization: Bearer` header carries visible ASCII only. */
export const HEADER_TOKEN = /^[\x21-\x7e]+$/;

/**
 * Pure: why an ntfy secret cannot be kept, as a code (the host words it in English, the window in its
 * language), or null. One check for the window's form and the host's door (desktop-targets.ts).
 */
export type NtfySecretFault = 'tokenOrUser' | 'userNeedsPassword' | 'userColon' | 'tokenChars';
export function ntfySecretFault(
  s: Pick<ForwardSecretInput, 'token' | 'user' | 'password'>,
): NtfySecretFault | null {
  if (s.token !== undefined && (s.user !== undefined || s.password !== undefined)) return 'tokenOrUser';
  if ((s.user === undefined) !== (s.password === undefined)) return 'userNeedsPassword';
  if (s.user?.includes(':')) return 'userColon';
  if (s.token !== undefined && !HEADER_TOKEN.test(s.token)) return 'tokenChars';
  return null;
}

const SecretText = Type.String({ minLength: 1, maxLength: 2048 });
export const ForwardSecretInputSchema = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: FORWARD_URL_MAX })),
    token: Type.Optional(SecretText),
    user: Type.Optional(SecretText),
    password: Type.Optional(SecretText),
    signingKey: Type.Optional(SecretText),
  },
  { additionalProperties: false },
);

/**
 * How a "Send test" or a refusal went, as facts the window words in its own language (the sentence in
 * `ForwardTestResult.message` is the host's English). `said`: the server's own words, passed on as
 * given (redacted and capped by the host).
 */
export type ForwardResultWords =
  | { code: 'delivered'; kind: ForwardKind; host: string }
  | { code: 'refused'; kind: ForwardKind; host: string; status: number; said: string }
  | { code: 'retry'; kind: ForwardKind; host: string; status: number | null; said: string }
  /** The target is set up but cannot run: why. */
  | { code: 'cannot-run'; why: ForwardWords }
  | { code: 'no-target'; id: string };

/**
 * Why the desktop app refuses a forwarding target or its secret, why a target cannot run, or why its
 * secrets cannot be kept, as facts the window words in its language and main in English for logs
 * (common/i18n/forward-words-text.ts; checked where they arrive by common/forward-words.ts). The values
 * name a target id, its kind, a URL's scheme and host, a file's base name: never a secret.
 */
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
