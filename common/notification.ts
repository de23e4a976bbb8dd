/**
 * What a desktop notification of an alert shows, for both notifiers: Electron's (main process) and the
 * browser's (Web Notifications, browser mode). One function, so the two can never word one alert
 * differently. The tag is the alert id: one notification per alert, and a second tab showing the same
 * alert replaces the first instead of adding another.
 */
import type { Alert } from './alerts.ts';

export interface DesktopNotice {
  title: string;
  body: string;
  /** Recoveries are good news: no sound. */
  silent: boolean;
  tag: string;
  /** Where a click goes: the alert's context and its first node. */
  focus: { context: string; node: string | null };
}

export function desktopNotice(alert: Alert): DesktopNotice {
  return {
    title: alert.title,
    body: alert.short ?? alert.body,
    silent: alert.kind === 'recovered',
    tag: alert.id,
    focus: { context: alert.context, node: alert.nodes[0] ?? null },
  };
}
