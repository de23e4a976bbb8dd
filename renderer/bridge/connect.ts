/**
 * Picks the host bridge for the page: Electron's preload has already put `window.fleet` there (and
 * main notifies); a page served over http is browser mode, which gets the loopback bridge and the
 * browser's own notifier. So there is never a second notifier for one alert.
 */
import { STABLE_TOKEN_COMMAND } from '../../common/browser-session.ts';
import { t } from '../i18n/i18n.svelte.ts';
import { createWebFleet } from './web-fleet.ts';
import { WebLink } from './web-link.svelte.ts';
import { type NotificationBrowser, WebNotifications } from './web-notifications.svelte.ts';

export interface ConnectedHost {
  /** Browser mode's notifier, already listening; null in Electron or without any host. */
  notifications: WebNotifications | null;
  /** Browser mode's event stream to its server (null in Electron). */
  link: WebLink | null;
}

export function connectHost(win: Window, browser?: NotificationBrowser): ConnectedHost {
  if (win.fleet || win.location.protocol !== 'http:') return { notifications: null, link: null };
  const link = new WebLink();
  const web = createWebFleet('', {
    link,
    tokenChanged: () => t('browserLink.tokenChanged', { command: STABLE_TOKEN_COMMAND }),
  });
  win.fleet = web;
  const notifications = new WebNotifications(web, browser);
  notifications.start();
  return { notifications, link };
}
