/**
 * What a desktop notification of an alert shows, for both notifiers: Electron's (main process) and the
 * browser's (Web Notifications, browser mode). One function, so the two can never word one alert
 * differently. The tag is the alert id: one notification per alert, and a second tab showing the same
 * alert replaces the first instead of adding another.
 */
import { type Alert, NOTIFICATION_BODY_MAX } from './alerts.ts';
import { clusterText } from './cluster-text.ts';
import { shownAlertText } from './i18n/alert-text.ts';
import type { Translator } from './i18n/translator.ts';

export interface DesktopNotice {
  title: string;
  body: string;
  /** Recoveries are good news: no sound. */
  silent: boolean;
  tag: string;
  /** Where a click goes: the alert's context and its first node. */
  focus: { context: string; node: string | null };
}

/** `tr`: the user's language (the alert log's); alerts with facts are worded in it, others as logged. */
export function desktopNotice(alert: Alert, tr: Translator): DesktopNotice {
  const text = shownAlertText(alert, tr);
  return {
    title: text.title,
    // Every kind with long words has a short text; the cap is the backstop for one that would not.
    body: clusterText(text.short ?? text.body, NOTIFICATION_BODY_MAX),
    silent: alert.kind === 'recovered',
    tag: alert.id,
    focus: { context: alert.context, node: alert.nodes[0] ?? null },
  };
}
