/**
 * Desktop notifications for alerts (snoozed ones only go to the log), in the user's language; a click
 * opens the window on that context.
 */
import { Notification } from 'electron';
import { shownAlertText } from '../../common/i18n/alert-text.ts';
import type { Translator } from '../../common/i18n/translator.ts';
import type { PolicyAlert } from '../alerts/types.ts';

export function notify(alert: PolicyAlert, onClick: (alert: PolicyAlert) => void, tr: Translator): boolean {
  if (alert.suppressed || !Notification.isSupported()) return false;
  const text = shownAlertText(alert, tr);
  const body = text.short ?? text.body;
  const n = new Notification({ title: text.title, body, silent: alert.kind === 'recovered' });
  n.on('click', () => onClick(alert));
  n.show();
  return true;
}
