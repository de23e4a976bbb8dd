/**
 * Pure: strips anything that looks like a credential from text and log fields before they are shown or
 * written. Two layers: field names (`token`, `password`, `Authorization`…) redact the whole value, and
 * patterns redact the secret inside any string — messages included, since an exec plugin's stderr or an
 * API server's message can carry `refresh_token=…`, `client_secret …` or an `Authorization:` header.
 * No maintained library fits (fast-redact and @pinojs/redact work on key paths, not inside text), so the
 * patterns are a table here, each one tested in log.test.ts.
 */
import { CLUSTER_TEXT_MAX, clusterText } from '../../common/cluster-text.ts';

const SECRET_KEY =
  /token|password|passwd|secret|authorization|bearer|private|client-key|key-data|cert-data|credential|cookie|api[-_]?key/i;

export const REDACTED = '[redacted]';

// Names of secrets as they appear in plugin output, OAuth answers, headers and URLs.
const COMPOUND =
  'refresh[_-]?token|access[_-]?token|id[_-]?token|client[_-]?secret|api[_-]?key|private[_-]?key|session[_-]?token|auth[_-]?token';
// (Authorization headers have their own pattern, which keeps the scheme.)
const WORD = 'password|passwd|pwd|secret|token|cookie|set-cookie|x-api-key|apikey';
// "credential(s)" is also a word of prose ("it holds credentials: run chmod 600"): its value is taken only
// after `=` or as a quoted (JSON) key, never after a bare `credentials:` in a sentence.
const PROSE_WORD = 'credentials?';

/** [pattern, replacement], applied in order; each keeps the name and replaces only the secret. */
const PATTERNS: readonly [RegExp, string][] = [
  // PEM blocks, to their END line (or the end of the text when cut).
  [/-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/g, REDACTED],
  // Authorization-style headers: the scheme stays, the credential goes.
  [
    /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(Bearer|Basic|Negotiate|Digest|Token)\s+)?[^\s"',;&]+/gi,
    `$1$2 ${REDACTED}`,
  ],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/g, `$1 ${REDACTED}`],
  // JSON ("refresh_token": "…"), query/form (refresh_token=…), YAML/log (password: …).
  [
    new RegExp(
      String.raw`(["']?\b(?:${COMPOUND}|${WORD})["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s"',;&]+)`,
      'gi',
    ),
    `$1${REDACTED}`,
  ],
  [
    new RegExp(
      String.raw`(["'](?:${PROSE_WORD})["']\s*:\s*|\b(?:${PROSE_WORD})\s*=\s*)("[^"]*"|'[^']*'|[^\s"',;&]+)`,
      'gi',
    ),
    `$1${REDACTED}`,
  ],
  // The compound names also with only a space before the value (`client_secret abc123`).
  [
    new RegExp(String.raw`\b((?:${COMPOUND})\s+)(?!\[redacted\])([A-Za-z0-9._~+/=-]{6,})`, 'gi'),
    `$1${REDACTED}`,
  ],
  // JWTs anywhere.
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // Userinfo in URLs (https://user:pw@host).
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, `$1${REDACTED}@`],
];

// A long run of token characters mixing upper case, lower case and digits: base64 / base64url secrets
// (GitHub, cloud and OpenShift tokens). Paths, UUIDs, hashes in lower-case hex and words are left alone,
// and so are names made of many short parts joined by '-' or '.', as GPU products are
// ("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED"): a random base64url token practically never has four or
// more parts all of at most 8 characters (it would need a '-' every few characters).
const LONG_TOKEN = /[A-Za-z0-9+/_=~.-]{32,}/g;
function looksLikeToken(run: string): boolean {
  if (run.includes('/') && run.split('/').every((part) => part.length < 24)) return false;
  const parts = run.split(/[-.]/);
  if (parts.length >= 4 && parts.every((part) => part.length <= 8)) return false;
  return /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run);
}

/** The text with every secret it seems to contain replaced by "[redacted]". */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [re, to] of PATTERNS) out = out.replace(re, to);
  return out.replace(LONG_TOKEN, (run) => (looksLikeToken(run) ? REDACTED : run));
}

/**
 * Outside text (a plugin's stderr, a server's message) as it may be shown: a bounded head, its escapes
 * and control characters removed, redacted (before the cap, so a cap cannot cut a secret into an
 * unrecognisable half), then cut by the one text gate.
 */
export function shownText(value: unknown, max: number = CLUSTER_TEXT_MAX): string {
  if (typeof value !== 'string') return '';
  const head = value.length > max * 8 + 64 ? value.slice(0, max * 8 + 64) : value;
  // Escapes go first: `\u001b[31mclient_secret …` would otherwise hide the name from the patterns.
  const plain = clusterText(head, head.length);
  return clusterText(redactSecrets(plain), max);
}

/**
 * A copy of log fields with secrets redacted: by field name, and by pattern inside every string. With
 * `max`, every string also passes the text gate (`shownText`): one line, no control characters, capped.
 */
export function redact(value: unknown, max?: number, depth = 0): unknown {
  if (depth > 6) return '[deep]';
  const text = (s: string) => (max === undefined ? redactSecrets(s) : shownText(s, max));
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redact(v, max, depth + 1));
  if (value instanceof Error) return text(value.message);
  if (value && typeof value === 'object') {
    // No prototype: a field named "__proto__" from outside stays a field.
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(value))
      out[k] = SECRET_KEY.test(k) ? REDACTED : redact(v, max, depth + 1);
    return out;
  }
  return value;
}
