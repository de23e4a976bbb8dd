/**
 * Desktop notifications in browser mode, through the Web Notifications API. The host decides what to
 * notify (hold-down, snooze: main's alert policy) and pushes exactly those alerts on `alerts:notify`;
 * this shows each with the words and tag Electron's notifier uses (common/notification.ts). A click
 * focuses the browser window and hands the page the same `ui:focus` a notification click sends in
 * Electron. Only browser mode creates one (bridge/connect.ts): in Electron main notifies alone.
 */
import type { Alert } from '../../common/alerts.ts';
import type { PushChannel, PushEvents } from '../../common/ipc.ts';
import { desktopNotice } from '../../common/notification.ts';
import { i18n } from '../i18n/i18n.svelte.ts';

/** `asking`: the browser's permission prompt is open. `failed`: the browser refused to construct one. */
export type NotifyState = 'unsupported' | 'default' | 'asking' | 'granted' | 'denied' | 'failed';

/** The part of the browser the notifier uses (tests hand in a fake). */
export interface NotificationBrowser {
  Notification: typeof Notification | undefined;
  focus(): void;
  /** Permission changes made in the browser's own settings while the page is open. */
  permissions: Pick<Permissions, 'query'> | undefined;
}

/** The part of the web bridge it uses. */
export interface NotifyBridge {
  on<P extends PushChannel>(channel: P, listener: (payload: PushEvents[P]) => void): () => void;
  deliver<P extends PushChannel>(channel: P, payload: PushEvents[P]): void;
}

/** Tags already shown by this page, so a repeated push never shows one alert twice (bounded). */
const SHOWN_MAX = 500;

export const browserNotifications = (): NotificationBrowser => ({
  Notification: typeof Notification === 'function' ? Notification : undefined,
  focus: () => window.focus(),
  permissions: typeof navigator !== 'undefined' ? navigator.permissions : undefined,
});

export class WebNotifications {
  #state = $state<NotifyState>('unsupported');
  #failure = $state<string | null>(null);
  readonly #bridge: NotifyBridge;
  readonly #browser: NotificationBrowser;
  readonly #shown: string[] = [];

  constructor(bridge: NotifyBridge, browser: NotificationBrowser = browserNotifications()) {
    this.#bridge = bridge;
    this.#browser = browser;
    this.#state = this.#read();
  }

  get state(): NotifyState {
    return this.#state;
  }
  /** The browser's own words when it refused to show a notification. */
  get failure(): string | null {
    return this.#failure;
  }

  /** Listens for alerts to notify, and for permission changes made in the browser. Returns the unsubscribe. */
  start(): () => void {
    const off = this.#bridge.on('alerts:notify', (alert) => this.#show(alert));
    this.#browser.permissions?.query({ name: 'notifications' }).then(
      (status) => {
        status.onchange = () => (this.#state = this.#read());
      },
      // Some browsers cannot be asked; the state is then read again on each alert and each click.
      () => undefined,
    );
    return off;
  }

  /** Asks the browser for permission: call it from a click (browsers ignore a prompt without one). */
  async enable(): Promise<void> {
    const N = this.#browser.Notification;
    if (N?.permission !== 'default') {
      this.#state = this.#read();
      return;
    }
    this.#state = 'asking';
    try {
      await N.requestPermission();
    } catch (error) {
      this.#failure = error instanceof Error ? error.message : String(error);
    }
    this.#state = this.#read();
  }

  #read(): NotifyState {
    const N = this.#browser.Notification;
    if (!N) return 'unsupported';
    if (this.#failure && N.permission === 'granted') return 'failed';
    return N.permission;
  }

  #show(alert: Alert): void {
    this.#state = this.#read();
    const N = this.#browser.Notification;
    if (N?.permission !== 'granted') return;
    // In the window's language, as the alert log shows it.
    const notice = desktopNotice(alert, i18n.tr);
    if (this.#shown.includes(notice.tag)) return;
    this.#shown.push(notice.tag);
    if (this.#shown.length > SHOWN_MAX) this.#shown.shift();
    try {
      const n = new N(notice.title, { body: notice.body, tag: notice.tag, silent: notice.silent });
      n.onclick = (event) => {
        event.preventDefault();
        this.#browser.focus();
        this.#bridge.deliver('ui:focus', notice.focus);
        n.close();
      };
    } catch (error) {
      // E.g. a browser that shows notifications only from a service worker.
      this.#failure = error instanceof Error ? error.message : String(error);
      this.#state = 'failed';
    }
  }
}
