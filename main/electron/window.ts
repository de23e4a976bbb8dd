/** The one application window: created on demand, hidden on close, sandboxed renderer. */
import path from 'node:path';
import { BrowserWindow } from 'electron';

export interface WindowManager {
  show(): void;
  /** The window's webContents id, or null when no window exists: IPC checks senders against it. */
  webContentsId(): number | null;
  send(channel: string, payload: unknown): void;
}

export function createWindowManager(): WindowManager {
  let win: BrowserWindow | null = null;
  const create = (): BrowserWindow => {
    const w = new BrowserWindow({
      width: 1100,
      height: 760,
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
      },
    });
    if (MAIN_WINDOW_VITE_DEV_SERVER_URL) void w.loadURL(MAIN_WINDOW_VITE_DEV_SERVER_URL);
    else void w.loadFile(path.join(__dirname, `../renderer/${MAIN_WINDOW_VITE_NAME}/index.html`));
    w.once('ready-to-show', () => w.show());
    w.on('closed', () => {
      win = null;
    });
    return w;
  };
  return {
    show() {
      win ??= create();
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    },
    webContentsId: () => (win && !win.isDestroyed() ? win.webContents.id : null),
    send(channel, payload) {
      if (win && !win.isDestroyed()) win.webContents.send(channel, payload);
    },
  };
}
