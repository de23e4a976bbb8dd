/** The one application window: created on demand, sandboxed renderer, its bounds remembered. */
import path from 'node:path';
import { BrowserWindow } from 'electron';
import type { PushSender } from '../../common/ipc.ts';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface WindowManager {
  show(): void;
  /** The window's webContents id, or null when no window exists: IPC checks senders against it. */
  webContentsId(): number | null;
  /** Pushes one event of the contract to the window (dropped while no window exists). */
  send: PushSender;
}

export function createWindowManager(initial: Bounds | null, saveBounds: (b: Bounds) => void): WindowManager {
  let win: BrowserWindow | null = null;
  let saveTimer: ReturnType<typeof setTimeout> | null = null;
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
    if (MAIN_WINDOW_VITE_DEV_SERVER_URL) void w.loadURL(MAIN_WINDOW_VITE_DEV_SERVER_URL);
    else void w.loadFile(path.join(__dirname, `../renderer/${MAIN_WINDOW_VITE_NAME}/index.html`));
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
