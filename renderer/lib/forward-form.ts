/**
 * Pure: the Forwarding form's draft and its checks (in the window's words), and a test result worded
 * from its facts. The host checks the same target again where it enters (its sentence is shown when it
 * refuses what passed here); a secret is never part of the draft the window keeps.
 */

import type { ErrorInfo } from '../../common/errors.ts';
import type { ForwardWords } from '../../common/forward-words.ts';
import {
  FORWARD_CLUSTERS_MAX,
  FORWARD_URL_MAX,
  type ForwardKind,
  type ForwardResultWords,
  type ForwardSecretInput,
  type ForwardTargetSetting,
  type ForwardTestResult,
  isNtfyTopic,
  ntfySecretFault,
  type Severity,
  TARGET_ID,
} from '../../common/forwarding.ts';
import type { MessageKey, MessageVars } from '../../common/i18n/catalog-types.ts';
import { forwardWordsText } from '../../common/i18n/forward-words-text.ts';
import type { Locale } from '../../common/i18n/locales.ts';
import { errorInfoText } from './invoke-error.ts';

type T = (key: MessageKey, vars?: MessageVars) => string;

export interface ForwardDraft {
  id: string;
  kind: ForwardKind;
  url: string;
  topic: string;
  /** Context names separated by commas; empty: every cluster. */
  clusters: string;
  minSeverity: Severity;
  language: Locale;
  enabled: boolean;
}

export type ForwardDraftErrors = Partial<Record<'id' | 'url' | 'topic' | 'clusters', string>>;

export function emptyDraft(language: Locale): ForwardDraft {
  return {
    id: '',
    kind: 'ntfy',
    url: '',
    topic: '',
    clusters: '',
    minSeverity: 'default',
    language,
    enabled: true,
  };
}

export function draftOf(t: ForwardTargetSetting): ForwardDraft {
  return { ...t, clusters: t.clusters === 'all' ? '' : t.clusters.join(', ') };
}

/** Only ntfy and a generic webhook have a URL in the settings; a Slack or Discord URL is a secret. */
export const hasUrl = (kind: ForwardKind): boolean => kind === 'ntfy' || kind === 'webhook';

function urlProblem(raw: string): boolean {
  try {
    const u = new URL(raw);
    // A ?query or #fragment is refused too: settings are plain text, and a query often carries a token.
    return (
      (u.protocol !== 'http:' && u.protocol !== 'https:') ||
      u.username !== '' ||
      u.password !== '' ||
      u.search !== '' ||
      u.hash !== ''
    );
  } catch {
    return true;
  }
}

export function checkDraft(
  d: ForwardDraft,
  t: T,
): { ok: true; target: ForwardTargetSetting } | { ok: false; errors: ForwardDraftErrors } {
  const errors: ForwardDraftErrors = {};
  const id = d.id.trim();
  if (!TARGET_ID.test(id)) errors.id = t('forwarding.form.badId');
  const url = hasUrl(d.kind) ? d.url.trim() : '';
  // The schema's cap where the host refuses it (FORWARD_URL_MAX), said here before it is sent.
  if (url.length > FORWARD_URL_MAX) errors.url = t('forwarding.form.urlTooLong', { max: FORWARD_URL_MAX });
  else if (hasUrl(d.kind) && urlProblem(url)) errors.url = t('forwarding.form.badUrl');
  const topic = d.kind === 'ntfy' ? d.topic.trim() : '';
  if (d.kind === 'ntfy' && !isNtfyTopic(topic)) errors.topic = t('forwarding.form.badTopic');
  const names = [
    ...new Set(
      d.clusters
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== ''),
    ),
  ];
  if (names.length > FORWARD_CLUSTERS_MAX || names.some((n) => n.length > 253))
    errors.clusters = t('forwarding.form.badClusters', { max: FORWARD_CLUSTERS_MAX });
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    target: {
      id,
      kind: d.kind,
      url,
      topic,
      clusters: names.length === 0 ? 'all' : names,
      minSeverity: d.minSeverity,
      language: d.language,
      enabled: d.enabled,
    },
  };
}

/**
 * Why the host would refuse this secret (main/forward/desktop-targets.ts checkSecretInput, the same
 * ntfySecretFault), in the window's words, or null. The host checks it again.
 */
export function secretProblem(kind: ForwardKind, s: ForwardSecretInput, t: T): string | null {
  if (kind === 'ntfy') {
    const fault = ntfySecretFault(s);
    return fault === null ? null : t(`forwarding.secret.${fault}`);
  }
  if ((kind === 'slack' || kind === 'discord') && s.url !== undefined && s.url.length > FORWARD_URL_MAX)
    return t('forwarding.form.urlTooLong', { max: FORWARD_URL_MAX });
  if ((kind === 'slack' || kind === 'discord') && s.url !== undefined && urlProblem(s.url))
    return t('forwarding.form.badUrl');
  return null;
}

function hint(w: Extract<ForwardResultWords, { code: 'refused' }>, t: T): string {
  if (w.status === 401 || w.status === 403)
    return t(w.kind === 'ntfy' ? 'forwarding.hint.authNtfy' : 'forwarding.hint.authHook');
  if (w.status === 404 || w.status === 410) return t('forwarding.hint.gone');
  if (w.status === 413) return t('forwarding.hint.tooLarge');
  return t('forwarding.hint.other');
}

/** A test result in the window's language: from its facts when the host gave them, else its sentence. */
export function resultText(result: ForwardTestResult, t: T): string {
  const w = result.words;
  if (!w) return result.message;
  switch (w.code) {
    case 'delivered':
      return t('forwarding.result.delivered', { kind: w.kind, host: w.host });
    case 'refused':
      return t('forwarding.result.refused', {
        kind: w.kind,
        host: w.host,
        status: String(w.status),
        said: w.said,
        hint: hint(w, t),
      });
    case 'retry':
      return w.status === null
        ? t('forwarding.result.noAnswer', { kind: w.kind, host: w.host, what: w.said })
        : t('forwarding.result.busy', { kind: w.kind, host: w.host, status: String(w.status), said: w.said });
    case 'cannot-run':
      return forwardWordsText(w.why, t) ?? result.message;
    case 'no-target':
      return t('forwarding.result.noTarget', { id: w.id });
  }
}

/** A refused invoke in the window's language: from its facts when the host gave them, else its sentence. */
export function refusalText(e: ErrorInfo, t: T): string {
  return errorInfoText(e, t);
}

/** Why a target does not run (or what the vault found), in the window's language. */
export function problemText(w: ForwardWords, id: string, t: T): string {
  return forwardWordsText(w, t) ?? t('forwarding.words.cannotRun', { id });
}
