/**
 * Desktop notifications for the alerts the engine host says to notify (snoozed ones only go to the log);
 * a click opens the window on that context and node. The host words them in the user's language with
 * common/notification.ts, as browser mode's page does.
 */
import { Notification } from 'electron';
import type { DesktopNotice } from '../../common/notification.ts';
import { notificationBody } from './notification-body.ts';

export function notify(
  notice: DesktopNotice,
  context: string,
  onClick: (focus: { context: string; node: string | null }) => void,
): boolean {
  if (!Notification.isSupported()) return false;
  // `id` is the toast's tag on Windows and the request identifier on macOS; groupId groups per context.
  const n = new Notification({
    title: notice.title,
    body: notificationBody(notice.body, process.platform),
    silent: notice.silent,
    id: notice.tag,
    groupId: context,
  });
  n.on('click', () => onClick(notice.focus));
  n.show();
  return true;
}
