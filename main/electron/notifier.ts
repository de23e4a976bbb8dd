/** Desktop notifications for alerts (snoozed ones only go to the log); a click opens the window on that context. */
import { Notification } from 'electron';
import type { PolicyAlert } from '../alerts/types.ts';

export function notify(alert: PolicyAlert, onClick: (alert: PolicyAlert) => void): boolean {
  if (alert.suppressed || !Notification.isSupported()) return false;
  const body = alert.short ?? alert.body;
  const n = new Notification({ title: alert.title, body, silent: alert.kind === 'recovered' });
  n.on('click', () => onClick(alert));
  n.show();
  return true;
}
