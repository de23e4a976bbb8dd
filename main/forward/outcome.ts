/**
 * Pure: what one answer means for a delivery. 2xx delivered; 429, 408 and 5xx, and failures on the
 * way, are retried (after Retry-After when the server gave one, in seconds or as an HTTP date, capped);
 * any other 4xx is terminal: sending it again cannot help, and the user is told in one sentence
 * ("ntfy: 403 forbidden — check the token"). The sentence names the target's host, never its URL path,
 * and the server's own words pass the text gate (redacted, one line, capped) after the target's own
 * secret values are struck out of them (a receiver or proxy may echo what it was sent, and a plain
 * password or signing key has no shape the redaction patterns know).
 */
import type { ForwardKind } from '../../common/forwarding.ts';
import { REDACTED, shownText } from '../log/redact.ts';
import type { SendResult } from './send.ts';

export type Outcome =
  | { type: 'delivered' }
  /** `afterMs`: the server's own wait (Retry-After), or null to use the backoff. */
  | {
      type: 'retry';
      afterMs: number | null;
      why: string;
      ambiguous: boolean;
      /** The HTTP status (null: no answer) and the server's words (or what failed on the way). */
      status: number | null;
      said: string;
    }
  | { type: 'terminal'; why: string; status: number; said: string };

/** A Retry-After is honoured up to this long; past it the backoff's own steps go on. */
export const RETRY_AFTER_MAX_MS = 15 * 60_000;

/** Retry-After as ms from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d{1,10}$/.test(v)) return Math.min(Number(v) * 1000, RETRY_AFTER_MAX_MS);
  // An HTTP date names a weekday and GMT; Date.parse also takes looser forms, which are refused here.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now), RETRY_AFTER_MAX_MS);
}

/** ntfy's and Discord's JSON error texts: `{"code":40301,"http":403,"error":"forbidden"}`, `{"message":…}`. */
function serverWords(body: string): string {
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') {
        const o = parsed as Record<string, unknown>;
        if (typeof o.error === 'string') return o.error;
        if (typeof o.message === 'string') return o.message;
      }
    } catch {
      // Not JSON after all: the head of the text is shown.
    }
  }
  return text.split('\n')[0] ?? '';
}

/** Discord also says how long to wait in its body (`retry_after`, seconds, fractional). */
function bodyRetryAfter(body: string): number | null {
  const m = /"retry_after"\s*:\s*(\d+(?:\.\d+)?)/.exec(body);
  return m ? Math.min(Math.ceil(Number(m[1]) * 1000), RETRY_AFTER_MAX_MS) : null;
}

/**
 * ntfy 2.11 sends no Retry-After: its request bucket refills one request per 5 s, and after 30 failed
 * logins it takes one more per minute (42909), so waiting less only spends the next token.
 */
function ntfyRefill(kind: ForwardKind, body: string): number | null {
  if (kind !== 'ntfy') return null;
  return body.includes('42909') ? 60_000 : 5_000;
}

function hint(kind: ForwardKind, status: number): string {
  if (status === 401 || status === 403)
    return kind === 'ntfy'
      ? 'check the token or password, and that it may write to this topic'
      : 'check the webhook URL (it may have been revoked)';
  if (status === 404 || status === 410) return 'check the URL (the topic or webhook may be gone)';
  if (status === 413) return 'the message was too large for the server';
  return 'the server refused the message';
}

/** The text with every occurrence of each secret value replaced, longest first (empty ones skipped). */
export function strikeSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length))
    if (s !== '') out = out.split(s).join(REDACTED);
  return out;
}

/** `secrets`: the target's own secret values, never repeated from the server's words. */
export function judge(
  kind: ForwardKind,
  host: string,
  result: SendResult,
  now: number,
  secrets: readonly string[] = [],
): Outcome {
  if (result.type === 'failure')
    return {
      type: 'retry',
      afterMs: null,
      why: `${kind} ${host}: ${result.what}`,
      ambiguous: result.sent,
      status: null,
      said: result.what,
    };
  const { status } = result;
  if (status >= 200 && status < 300) return { type: 'delivered' };
  const words = shownText(strikeSecrets(serverWords(result.body), secrets), 160);
  const said = `${status}${words === '' ? '' : ` ${words}`}`;
  if (status === 429 || status === 408 || status >= 500) {
    const wait =
      retryAfterMs(result.retryAfter, now) ??
      (status === 429 ? (bodyRetryAfter(result.body) ?? ntfyRefill(kind, result.body)) : null);
    return {
      type: 'retry',
      afterMs: wait,
      why: `${kind} ${host}: ${said}`,
      ambiguous: false,
      status,
      said: words,
    };
  }
  return { type: 'terminal', why: `${kind} ${host}: ${said} — ${hint(kind, status)}`, status, said: words };
}
