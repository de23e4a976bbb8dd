/**
 * Pure: the desktop app's targets (settings, no secret) and their secrets (from Electron main's vault)
 * joined into targets that can send, or a sentence per target saying why one cannot. The settings part
 * is checked where it enters (`checkTargetSetting`, for the window's save) and again here, since a
 * settings file may have been edited by hand. Sentences name the target id and host only.
 */
import { hasControlChars } from '../../common/cluster-text.ts';
import {
  type ForwardSecret,
  type ForwardSecretInput,
  type ForwardTargetSetting,
  type NtfySecretFault,
  ntfySecretFault,
  TARGET_ID,
} from '../../common/forwarding.ts';
import { NTFY_TOPIC, parseEndpoint, TOKEN_PROBLEM } from './endpoint.ts';

/** The host's English for an ntfy secret's fault (the window words the same codes in its language). */
const NTFY_FAULT_TEXT: Readonly<Record<NtfySecretFault, string>> = {
  tokenOrUser: 'An ntfy target takes a token or a user and password, not both.',
  userNeedsPassword: 'An ntfy user needs its password (and a password its user).',
  userColon: 'An ntfy user name has no ":".',
  tokenChars: TOKEN_PROBLEM,
};

import type { ResolvedTarget } from './forwarder.ts';

/** The endpoint a target sends to: ntfy's server and topic, the webhook's URL, or the secret URL. */
function endpointUrl(t: ForwardTargetSetting, secret: ForwardSecretInput | undefined): string | null {
  if (t.kind === 'ntfy') return `${t.url.replace(/\/+$/, '')}/${t.topic}`;
  if (t.kind === 'webhook') return t.url;
  return secret?.url ?? null;
}

/** Why the window's target cannot be saved, or null. */
export function checkTargetSetting(t: ForwardTargetSetting): string | null {
  if (!TARGET_ID.test(t.id)) return 'A forwarding target id is 1 to 32 lower-case letters, digits or "-".';
  if (t.kind === 'slack' || t.kind === 'discord') {
    if (t.url !== '' || t.topic !== '')
      return `A ${t.kind} webhook URL is a secret: enter it as the target's secret, not in its settings.`;
    return null;
  }
  if (t.kind === 'webhook' && t.topic !== '') return 'Only an ntfy target has a topic.';
  // Settings are plain text and a query often carries a token: the desktop app's webhook authenticates
  // with its signing key, kept in the vault (the CLI's --forward URL never reaches a file).
  if (t.kind === 'webhook' && /[?#]/.test(t.url))
    return `${t.id}: a webhook URL in the settings has no ?query (it would be kept in plain text); use the signing key.`;
  // The URL parser drops tabs and newlines silently: what is stored must be what is sent.
  if (hasControlChars(t.url)) return `${t.id}: the URL has control characters.`;
  if (t.kind === 'ntfy' && !NTFY_TOPIC.test(t.topic))
    return `${t.id}: an ntfy topic is 1 to 64 letters, digits, "-" or "_".`;
  const url = endpointUrl(t, undefined);
  const checked = parseEndpoint(t.kind, url ?? '');
  return checked.ok ? null : `${t.id}: ${checked.error}`;
}

/** Why a secret the window entered cannot be kept for this kind, or null. */
export function checkSecretInput(kind: ForwardTargetSetting['kind'], s: ForwardSecretInput): string | null {
  const given = (Object.keys(s) as (keyof ForwardSecretInput)[]).filter((k) => s[k] !== undefined);
  if (given.length === 0) return 'The secret is empty.';
  if (kind === 'ntfy') {
    if (given.some((k) => k === 'url' || k === 'signingKey'))
      return 'An ntfy target takes a token, or a user and password.';
    const fault = ntfySecretFault(s);
    return fault === null ? null : NTFY_FAULT_TEXT[fault];
  }
  if (kind === 'webhook')
    return given.every((k) => k === 'signingKey') ? null : 'A webhook target takes a signing key.';
  if (!given.every((k) => k === 'url') || s.url === undefined)
    return `A ${kind} target's secret is its webhook URL.`;
  const checked = parseEndpoint(kind, s.url);
  return checked.ok ? null : checked.error;
}

export interface DesktopTargets {
  targets: ResolvedTarget[];
  /** Target id → why it does not run. */
  problems: Record<string, string>;
}

export function resolveDesktopTargets(
  settings: readonly ForwardTargetSetting[],
  secrets: Readonly<Record<string, ForwardSecretInput>>,
): DesktopTargets {
  const targets: ResolvedTarget[] = [];
  const problems: Record<string, string> = {};
  // One target per id (the window's save keeps them so; a hand-edited file may not): two of one id
  // would share one queue and secret, every alert queued twice. The first one runs.
  const seen = new Set<string>();
  for (const t of settings) {
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    // A settings file edited by hand gets the window's checks too.
    const refused = checkTargetSetting(t);
    if (refused !== null) {
      problems[t.id] = refused;
      continue;
    }
    const secret = Object.hasOwn(secrets, t.id) ? secrets[t.id] : undefined;
    const url = endpointUrl(t, secret);
    if (url === null) {
      problems[t.id] = `${t.id}: the ${t.kind} webhook URL is not set; enter it as the target's secret.`;
      continue;
    }
    const checked = parseEndpoint(t.kind, url);
    if (!checked.ok) {
      problems[t.id] = `${t.id}: ${checked.error}`;
      continue;
    }
    const full: ForwardSecret = { url };
    if (t.kind === 'ntfy' && secret?.token !== undefined) full.token = secret.token;
    if (t.kind === 'ntfy' && secret?.user !== undefined && secret.password !== undefined) {
      full.user = secret.user;
      full.password = secret.password;
    }
    if (t.kind === 'webhook' && secret?.signingKey !== undefined) full.signingKey = secret.signingKey;
    targets.push({
      config: {
        id: t.id,
        kind: t.kind,
        host: checked.endpoint.host,
        clusters: t.clusters === 'all' ? 'all' : [...t.clusters],
        minSeverity: t.minSeverity,
        language: t.language,
        enabled: t.enabled,
      },
      endpoint: checked.endpoint,
      secret: full,
    });
  }
  return { targets, problems };
}
