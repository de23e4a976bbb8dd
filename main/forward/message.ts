/**
 * Pure: what one alert says to one target, in the target's language, from the same words as the desktop
 * notification (common/i18n/alert-text.ts `shownAlertText`). Kept as plain JSON data without secrets, so
 * an undelivered message can be persisted and sent after a restart exactly as it was worded.
 */
import { createHash } from 'node:crypto';
import type { Alert, AlertKind } from '../../common/alerts.ts';
import { clusterText } from '../../common/cluster-text.ts';
import type { Severity } from '../../common/forwarding.ts';
import { severityOf } from '../../common/forwarding.ts';
import { shownAlertText } from '../../common/i18n/alert-text.ts';
import type { Locale } from '../../common/i18n/locales.ts';
import { translator } from '../../common/i18n/translator.ts';

export interface ForwardMessage {
  /**
   * Stable per alert: the webhook's `event_id` and Idempotency-Key, and the ntfy tag that finds a
   * message already published (32 lower-case hex characters).
   */
  eventId: string;
  alertId: string;
  kind: AlertKind | 'test';
  severity: Severity;
  /** The kubeconfig context the alert is about. */
  context: string;
  /** RFC 3339: when the alert was decided. */
  at: string;
  nodes: { name: string; reason: string | null }[];
  before: number | null;
  after: number | null;
  language: Locale;
  title: string;
  body: string;
}

/** Node lists in a message are capped: a drop of thousands of nodes names the first ones. */
export const MESSAGE_NODES_MAX = 50;
export const MESSAGE_BODY_MAX = 3500;

export function eventIdOf(alertId: string): string {
  return createHash('sha256').update(alertId).digest('hex').slice(0, 32);
}

export function forwardMessage(alert: Alert, language: Locale): ForwardMessage {
  const text = shownAlertText(alert, translator(language));
  // A node's reason as the texts say it: the real cause first when a GPU health signal named one.
  const causes = alert.words?.kind === 'ready-drop' ? (alert.words.cause ?? []) : [];
  const en = translator('en');
  const reasons = new Map(
    (alert.reasons ?? []).map((r, i) => {
      const cause = causes[i] ?? null;
      return [r.node, cause === null ? r.reason : en.t('alert.causeFirst', { cause, reason: r.reason })];
    }),
  );
  return {
    eventId: eventIdOf(alert.id),
    alertId: alert.id,
    kind: alert.kind,
    severity: severityOf(alert.kind),
    context: alert.context,
    at: alert.at,
    nodes: alert.nodes
      .slice(0, MESSAGE_NODES_MAX)
      .map((name) => ({ name, reason: reasons.get(name) ?? null })),
    before: alert.before,
    after: alert.after,
    language,
    title: clusterText(text.title, 200),
    body: cut(text.body, MESSAGE_BODY_MAX),
  };
}

/** The message a "Send test" sends: a fresh event each time (a test is meant to arrive). */
export function testMessage(targetId: string, at: number, language: Locale): ForwardMessage {
  const tr = translator(language);
  const iso = new Date(at).toISOString();
  return {
    eventId: eventIdOf(`test:${targetId}:${iso}`),
    alertId: `test:${targetId}:${iso}`,
    kind: 'test',
    severity: 'low',
    context: '',
    at: iso,
    nodes: [],
    before: null,
    after: null,
    language,
    title: tr.t('forwarding.test.title'),
    body: tr.t('forwarding.test.body', { target: targetId }),
  };
}

export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
