/**
 * Pure: an ntfy publish of one message, as JSON to the server's root (ntfy 2.11; see the transcripts in
 * ../shared/ntfy). JSON, not headers, because titles in Korean, Chinese or Japanese and context names
 * with commas pass through JSON untouched, and because its limits are documented: the body under 8192
 * bytes, the message under 4096. ntfy takes no client-chosen message id, so every message carries the
 * tag `gf-<event id>`: after an attempt whose answer was lost, the queue looks for that tag
 * (`ntfyCheckRequest`) before it sends again.
 */
import type { AlertKind } from '../../common/alerts.ts';
import type { ForwardSecret, Severity } from '../../common/forwarding.ts';
import type { ForwardMessage } from './message.ts';
import type { OutboundRequest } from './outbound.ts';

/** An ntfy target's credentials: a token, or a user and password. */
export type Credentials = Pick<ForwardSecret, 'token' | 'user' | 'password'>;

/** ntfy's priorities: 2 low, 3 default, 4 high, 5 urgent (1 "min" is never used for an alert). */
export const NTFY_PRIORITY: Readonly<Record<Severity, number>> = Object.freeze({
  low: 2,
  default: 3,
  high: 4,
  urgent: 5,
});

/** Emoji tags ntfy shows before the title. */
const EMOJI: Readonly<Record<AlertKind | 'test', string>> = Object.freeze({
  'ready-drop': 'warning',
  'gpus-withdrawn': 'warning',
  'gpu-gone': 'x',
  'gpu-xid': 'rotating_light',
  'gpu-hot': 'fire',
  flapping: 'arrows_counterclockwise',
  unreachable: 'electric_plug',
  recovered: 'white_check_mark',
  reachable: 'white_check_mark',
  'no-free-gpu': 'hourglass',
  'free-gpu-back': 'white_check_mark',
  test: 'test_tube',
});

/** The message must stay under ntfy's 4096-byte limit (a longer one is refused as an attachment). */
export const NTFY_MESSAGE_BYTES_MAX = 4000;

export function eventTag(eventId: string): string {
  return `gf-${eventId}`;
}

/** Characters Markdown would read as formatting, escaped so a reason from the cluster stays text. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`);
}

export function authHeader(creds: Credentials): Record<string, string> {
  if (creds.token !== undefined) return { authorization: `Bearer ${creds.token}` };
  if (creds.user !== undefined)
    return {
      authorization: `Basic ${Buffer.from(`${creds.user}:${creds.password ?? ''}`, 'utf8').toString('base64')}`,
    };
  return {};
}

export function ntfyRequest(
  m: ForwardMessage,
  ntfy: { base: string; topic: string },
  creds: Credentials,
  click: string | null,
): OutboundRequest {
  const body: Record<string, unknown> = {
    topic: ntfy.topic,
    title: m.title,
    message: utf8Cut(escapeMarkdown(m.body), NTFY_MESSAGE_BYTES_MAX),
    priority: NTFY_PRIORITY[m.severity],
    tags: [EMOJI[m.kind], eventTag(m.eventId)],
    markdown: true,
  };
  if (click !== null) body.click = click;
  return {
    method: 'POST',
    url: `${ntfy.base}/`,
    headers: { 'content-type': 'application/json', ...authHeader(creds) },
    body: JSON.stringify(body),
  };
}

/** A poll of the topic for messages carrying the event's tag, published at or after `sinceSec`. */
export function ntfyCheckRequest(
  eventId: string,
  ntfy: { base: string; topic: string },
  creds: Credentials,
  sinceSec: number,
): OutboundRequest {
  const q = new URLSearchParams({ poll: '1', since: String(sinceSec), tags: eventTag(eventId) });
  return {
    method: 'GET',
    url: `${ntfy.base}/${ntfy.topic}/json?${q}`,
    headers: authHeader(creds),
    body: null,
  };
}

/** `text` cut to at most `max` UTF-8 bytes, never inside a character. */
export function utf8Cut(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > max - 3) break;
    out += ch;
    bytes += n;
  }
  return `${out}…`;
}
