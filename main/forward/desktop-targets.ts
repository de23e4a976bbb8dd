/**
 * Pure: the desktop app's targets (settings, no secret) and their secrets (from Electron main's vault)
 * joined into targets that can send, or the facts per target of why one cannot (`ForwardWords`, worded
 * in English by forwardWordsEnglish, in the window's language by the window). The settings part is
 * checked where it enters (`checkTargetSetting`, for the window's save) and again here, since a
 * settings file may have been edited by hand. The facts name the target id, kind and host only.
 */
import { hasControlChars } from '../../common/cluster-text.ts';
import type { ForwardWords } from '../../common/forward-words.ts';
import {
  type ForwardSecret,
  type ForwardSecretInput,
  type ForwardTargetSetting,
  isNtfyTopic,
  ntfySecretFault,
  TARGET_ID,
} from '../../common/forwarding.ts';
import { type EndpointCheck, parseEndpoint } from './endpoint.ts';

import type { ResolvedTarget } from './forwarder.ts';

/** The endpoint a target sends to: ntfy's server and topic, the webhook's URL, or the secret URL. */
function endpointUrl(t: ForwardTargetSetting, secret: ForwardSecretInput | undefined): string | null {
  if (t.kind === 'ntfy') return `${t.url.replace(/\/+$/, '')}/${t.topic}`;
  if (t.kind === 'webhook') return t.url;
  return secret?.url ?? null;
}

/** A refused endpoint as facts (the CLI keeps parseEndpoint's sentence). */
function badUrl(t: Pick<ForwardTargetSetting, 'id' | 'kind'>, c: EndpointCheck): ForwardWords | null {
  return c.ok ? null : { code: 'badUrl', id: t.id, kind: t.kind, fault: c.fault, host: c.host };
}

/** Why the window's target cannot be saved, or null. */
export function checkTargetSetting(t: ForwardTargetSetting): ForwardWords | null {
  if (!TARGET_ID.test(t.id)) return { code: 'badId' };
  const id = t.id;
  if (t.kind === 'slack' || t.kind === 'discord') {
    if (t.url !== '' || t.topic !== '') return { code: 'urlIsSecret', id, kind: t.kind };
    return null;
  }
  if (t.kind === 'webhook' && t.topic !== '') return { code: 'topicNotNtfy', id };
  // Settings are plain text and a query often carries a token: the desktop app's webhook authenticates
  // with its signing key, kept in the vault (the CLI's --forward URL never reaches a file).
  if (t.kind === 'webhook' && /[?#]/.test(t.url)) return { code: 'webhookQuery', id };
  // The URL parser drops tabs and newlines silently: what is stored must be what is sent.
  if (hasControlChars(t.url)) return { code: 'controlChars', id };
  if (t.kind === 'ntfy' && !isNtfyTopic(t.topic)) return { code: 'badTopic', id };
  return badUrl(t, parseEndpoint(t.kind, endpointUrl(t, undefined) ?? ''));
}

/** Why a secret the window entered for target `id` cannot be kept for this kind, or null. */
export function checkSecretInput(
  id: string,
  kind: ForwardTargetSetting['kind'],
  s: ForwardSecretInput,
): ForwardWords | null {
  const given = (Object.keys(s) as (keyof ForwardSecretInput)[]).filter((k) => s[k] !== undefined);
  if (given.length === 0) return { code: 'secretEmpty', id };
  if (kind === 'ntfy') {
    if (given.some((k) => k === 'url' || k === 'signingKey')) return { code: 'secretParts', id, kind };
    const fault = ntfySecretFault(s);
    return fault === null ? null : { code: 'ntfySecret', id, fault };
  }
  if (kind === 'webhook')
    return given.every((k) => k === 'signingKey') ? null : { code: 'secretParts', id, kind };
  if (!given.every((k) => k === 'url') || s.url === undefined) return { code: 'secretParts', id, kind };
  return badUrl({ id, kind }, parseEndpoint(kind, s.url));
}

export interface DesktopTargets {
  targets: ResolvedTarget[];
  /** Target id → why it does not run. */
  problems: Record<string, ForwardWords>;
}

export function resolveDesktopTargets(
  settings: readonly ForwardTargetSetting[],
  secrets: Readonly<Record<string, ForwardSecretInput>>,
): DesktopTargets {
  const targets: ResolvedTarget[] = [];
  const problems: Record<string, ForwardWords> = {};
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
      problems[t.id] = { code: 'urlNotSet', id: t.id, kind: t.kind };
      continue;
    }
    const checked = parseEndpoint(t.kind, url);
    if (!checked.ok) {
      problems[t.id] = { code: 'badUrl', id: t.id, kind: t.kind, fault: checked.fault, host: checked.host };
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
