/**
 * Desktop notifications for alerts (snoozed ones only go to the log); a click opens the window on that
 * context and node, in the user's language. The words come from common/notification.ts, as in browser mode.
 */
import { Notification } from 'electron';
import type { Translator } from '../../common/i18n/translator.ts';
import { desktopNotice } from '../../common/notification.ts';
import type { PolicyAlert } from '../alerts/types.ts';

export function notify(
  alert: PolicyAlert,
  onClick: (focus: { context: string; node: string | null }) => void,
  tr: Translator,
): boolean {
  if (alert.suppressed || !Notification.isSupported()) return false;
  const notice = desktopNotice(alert, tr);
  // `id` is the toast's tag on Windows and the request identifier on macOS; groupId groups per context.
  const n = new Notification({
    title: notice.title,
    body: notice.body,
    silent: notice.silent,
    id: notice.tag,
    groupId: alert.context,
  });
  n.on('click', () => onClick(notice.focus));
  n.show();
  return true;
}
