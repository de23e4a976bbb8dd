/**
 * Pure: a target's URL checked once, where it enters (settings, `--forward KIND=URL`), into the parts
 * delivery needs. Refused with one sentence that never repeats the URL's path (it may be the secret:
 * a Slack or Discord webhook token, an ntfy topic on a public server).
 */
import type { EndpointFault } from '../../common/forward-words.ts';
import { type ForwardKind, HEADER_TOKEN, isNtfyTopic } from '../../common/forwarding.ts';

export interface Endpoint {
  kind: ForwardKind;
  url: URL;
  /** Scheme, host and port: what may be shown. */
  host: string;
  /** ntfy only: the server's base URL (no trailing slash) and the topic. */
  ntfy?: { base: string; topic: string };
}

/** A refusal: the CLI's English sentence, and its fault for the window's words (`host`: '' before it is known). */
export type EndpointCheck =
  | { ok: true; endpoint: Endpoint }
  | { ok: false; error: string; fault: EndpointFault; host: string };

export const URL_MAX = 2048;

export function parseEndpoint(kind: ForwardKind, raw: string): EndpointCheck {
  if (raw.length > URL_MAX)
    return {
      ok: false,
      error: `the ${kind} URL is longer than ${URL_MAX} characters`,
      fault: 'tooLong',
      host: '',
    };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {
      ok: false,
      error: `the ${kind} URL is not a URL (write it as http://host:port/path)`,
      fault: 'notUrl',
      host: '',
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      ok: false,
      error: `the ${kind} URL must start with http:// or https://`,
      fault: 'scheme',
      host: '',
    };
  const host = `${url.protocol}//${url.host}`;
  if (url.username !== '' || url.password !== '')
    return {
      ok: false,
      error: `the ${kind} URL for ${host} carries a user or password; give it as a secret instead (--forward-user-file)`,
      fault: 'credentials',
      host,
    };
  if (url.hash !== '')
    return {
      ok: false,
      error: `the ${kind} URL for ${host} must not have a #fragment`,
      fault: 'fragment',
      host,
    };
  if (kind !== 'ntfy') return { ok: true, endpoint: { kind, url, host } };
  if (url.search !== '')
    return {
      ok: false,
      error: `the ntfy URL for ${host} must be the server and topic, without a ?query`,
      fault: 'ntfyQuery',
      host,
    };
  const parts = url.pathname.split('/');
  const topic = parts.pop() ?? '';
  if (!isNtfyTopic(topic))
    return {
      ok: false,
      error: `the ntfy URL for ${host} must end in a topic of 1 to 64 letters, digits, "-" or "_" that is not one of ntfy's own pages (e.g. ${host}/gpu-alerts)`,
      fault: 'ntfyTopic',
      host,
    };
  const base = `${host}${parts.join('/')}`.replace(/\/+$/, '');
  return { ok: true, endpoint: { kind, url, host, ntfy: { base, topic } } };
}

/**
 * Why an ntfy token cannot be sent, or null: it goes into an `Authorization: Bearer` header, which
 * carries visible ASCII only (a token pasted with a space, newline or zero-width space would be refused
 * by every request). The sentence never repeats the token.
 */
export const TOKEN_PROBLEM =
  'the ntfy token holds a space or a character other than visible ASCII (check what was pasted)';
export function tokenProblem(token: string): string | null {
  return HEADER_TOKEN.test(token) ? null : TOKEN_PROBLEM;
}
