/**
 * The one application window: created on demand, sandboxed renderer served from the app's own scheme,
 * its bounds remembered. Pushes wait in a PushQueue until the page says it has subscribed.
 */
import path from 'node:path';
import { BrowserWindow } from 'electron';
import type { ShellSettings } from '../../common/host-protocol.ts';
import type { PushChannel, PushSender } from '../../common/ipc.ts';
import { APP_INDEX_URL, APP_ORIGIN } from './app-origin.ts';
import { PUSH_QUEUE_MAX, PushQueue } from './push-queue.ts';

/** The window's saved place, as the engine host keeps it in the settings. */
export type Bounds = NonNullable<ShellSettings['window']>;

export interface WindowManager {
  show(): void;
  /** The window's webContents id, or null when no window exists: IPC checks senders against it. */
  webContentsId(): number | null;
  /**
   * Pushes one event of the contract to the window: held until its renderer is ready, dropped while no
   * window exists.
   */
  send: PushSender;
  /** The same for a push the engine host already encoded: its JSON text is passed on unread. */
  relay(channel: PushChannel, json: string): void;
  /** The saved bounds to open the window with, once the engine host has read them from the settings. */
  restoreBounds(bounds: Bounds | null): void;
  /** The renderer of this webContents has subscribed to pushes: deliver what was held. */
  rendererReady(webContentsId: number): void;
  /** The origin the window's page must have (IPC checks the sender frame against it). */
  readonly origin: string;
}

/** Where the built renderer is, for the app's scheme (next to the main bundle). */
export const rendererRoot = (): string => path.join(__dirname, `../renderer/${MAIN_WINDOW_VITE_NAME}`);

export function createWindowManager(
  saved: Bounds | null,
  saveBounds: (b: Bounds) => void,
  /** Where the window's failures go (the log): a page that did not load, pushes dropped while loading. */
  report: (message: string) => void,
  /** The window was created (true) or closed (false): the engine host pushes only while one exists. */
  onOpen: (open: boolean) => void = () => undefined,
): WindowManager {
  // Vite's dev server in development, else the app's own scheme.
  const devServer = MAIN_WINDOW_VITE_DEV_SERVER_URL || null;
  const origin = devServer ? new URL(devServer).origin : APP_ORIGIN;
  let win: BrowserWindow | null = null;
  let queue: PushQueue | null = null;
  let saveTimer: ReturnType<typeof setTimeout> | null = null;
  let initial = saved;
  const create = (): BrowserWindow => {
    const w = new BrowserWindow({
      ...(initial
        ? { x: initial.x, y: initial.y, width: initial.width, height: initial.height }
        : { width: 1100, height: 760 }),
      minWidth: 420,
      minHeight: 480,
      show: false,
      title: 'GPU Fleet',
      webPreferences: {
        preload: path.join(__dirname, 'preload.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: false,
      },
    });
    const q = new PushQueue(w.webContents);
    queue = q;
    // A new document in the top frame (a reload) replaces the page and its listeners: hold pushes until
    // the new page is ready. A subframe or same-document navigation keeps the page.
    w.webContents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) q.reset();
    });
    w.webContents.on('render-process-gone', () => q.reset());
    w.loadURL(devServer ?? APP_INDEX_URL).catch((error: unknown) => {
      report(
        `The GPU Fleet window could not load: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    w.once('ready-to-show', () => {
      if (initial?.maximized) w.maximize();
      w.show();
    });
    const remember = () => {
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = setTimeout(() => {
        if (w.isDestroyed()) return;
        const b = w.getBounds();
        saveBounds({ x: b.x, y: b.y, width: b.width, height: b.height, maximized: w.isMaximized() });
      }, 500);
    };
    w.on('resize', remember);
    w.on('move', remember);
    w.on('closed', () => {
      win = null;
      queue = null;
      onOpen(false);
    });
    return w;
  };
  return {
    show() {
      if (!win) {
        win = create();
        onOpen(true);
      }
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    },
    webContentsId: () => (win && !win.isDestroyed() ? win.webContents.id : null),
    send(channel, payload) {
      if (win && !win.isDestroyed()) queue?.send(channel, JSON.stringify(payload));
    },
    relay(channel, json) {
      if (win && !win.isDestroyed()) queue?.send(channel, json);
    },
    restoreBounds(bounds) {
      initial = bounds;
    },
    rendererReady(webContentsId) {
      if (!win || win.isDestroyed() || win.webContents.id !== webContentsId) return;
      const dropped = queue?.markReady() ?? 0;
      if (dropped > 0)
        report(
          `${dropped} pushes to the window were dropped while its page loaded (more than ${PUSH_QUEUE_MAX} waited).`,
        );
    },
    origin,
  };
}
