/**
 * A hand-made test double of the `electron` module: just enough of app, BrowserWindow, Tray, Menu,
 * Notification, ipcMain, session, shell and nativeImage for the main bundle to run under plain Node,
 * recording what the app did so tests can assert on it.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settleReply } from '../../common/ipc.ts';

type Handler = (event: { sender: { id: number } }, ...args: unknown[]) => unknown;
export interface MenuItemRecord {
  label?: string;
  type?: string;
  enabled?: boolean;
  checked?: boolean;
  click?: () => void;
  submenu?: MenuItemRecord[];
}

let nextWebContentsId = 100;

class WebContentsDouble extends EventEmitter {
  readonly id = nextWebContentsId++;
  readonly sent: { channel: string; payload: unknown }[] = [];
  windowOpenHandler: unknown = null;
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  setWindowOpenHandler(handler: unknown): void {
    this.windowOpenHandler = handler;
  }
}

export class ElectronDouble {
  readonly userData = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-electron-'));
  readonly app = Object.assign(new EventEmitter(), {
    quitCalled: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => this.ready,
    getVersion: () => '0.0.0-test',
    getLocale: () => 'en-US',
    getPreferredSystemLanguages: (): string[] => ['en-US'],
    getName: () => 'GPU Fleet',
    getPath: (_name: string) => this.userData,
    getAppPath: () => process.cwd(),
    isPackaged: false,
    quit: () => {
      if (this.app.quitCalled) return;
      this.app.quitCalled = true;
      this.app.emit('before-quit');
    },
    setLoginItemSettings: (settings: unknown) => this.loginItems.push(settings),
  });
  readonly trays: TrayDoubleInstance[] = [];
  readonly windows: WindowDoubleInstance[] = [];
  readonly notifications: NotificationDoubleInstance[] = [];
  readonly handlers = new Map<string, Handler>();
  readonly opened: string[] = [];
  readonly loginItems: unknown[] = [];
  permissionHandler: unknown = null;
  private readonly ready: Promise<void>;

  constructor() {
    this.ready = new Promise((resolve) =>
      setImmediate(() => {
        this.app.emit('ready');
        resolve();
      }),
    );
  }

  /** Simulates `ipcRenderer.invoke` from a webContents with the given id: the handler's raw reply. */
  async reply(channel: string, senderId: number, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler({ sender: { id: senderId } }, ...args);
  }

  /** Simulates the preload's invoke: the value, or a rejection with the failure's `{kind, message}`. */
  async invoke(channel: string, senderId: number, ...args: unknown[]): Promise<unknown> {
    return settleReply(await this.reply(channel, senderId, ...args));
  }

  module(): Record<string, unknown> {
    const double = this;
    class BrowserWindow extends EventEmitter {
      readonly webContents = new WebContentsDouble();
      loaded: string | null = null;
      visible = false;
      destroyed = false;
      constructor(readonly options: unknown) {
        super();
        double.windows.push(this);
        double.app.emit('web-contents-created', {}, this.webContents);
      }
      loadURL(url: string) {
        this.loaded = url;
        setImmediate(() => this.emit('ready-to-show'));
        return Promise.resolve();
      }
      loadFile(file: string) {
        return this.loadURL(`file://${file}`);
      }
      show() {
        this.visible = true;
      }
      hide() {
        this.visible = false;
      }
      focus() {}
      isMinimized() {
        return false;
      }
      isMaximized() {
        return false;
      }
      maximize() {}
      restore() {}
      isDestroyed() {
        return this.destroyed;
      }
      isVisible() {
        return this.visible;
      }
      getBounds() {
        return { x: 0, y: 0, width: 1100, height: 760 };
      }
      setBounds() {}
      close() {
        this.destroyed = true;
        this.emit('closed');
      }
    }
    class Tray extends EventEmitter {
      tooltip = '';
      menu: MenuItemRecord[] = [];
      image: unknown;
      constructor(image: unknown) {
        super();
        this.image = image;
        double.trays.push(this);
      }
      setToolTip(text: string) {
        this.tooltip = text;
      }
      setContextMenu(menu: { items: MenuItemRecord[] }) {
        this.menu = menu.items;
      }
      setImage(image: unknown) {
        this.image = image;
      }
      destroy() {}
    }
    class Notification extends EventEmitter {
      shown = false;
      constructor(readonly options: { title: string; body: string }) {
        super();
      }
      static isSupported() {
        return true;
      }
      show() {
        this.shown = true;
        double.notifications.push(this);
      }
    }
    const image = (p: string) => ({ path: p, isEmpty: () => !fs.existsSync(p), setTemplateImage() {} });
    return {
      app: this.app,
      BrowserWindow,
      Tray,
      Notification,
      Menu: { buildFromTemplate: (items: MenuItemRecord[]) => ({ items }) },
      nativeImage: { createFromPath: image, createEmpty: () => image('') },
      ipcMain: {
        on: () => undefined,
        handle: (channel: string, handler: Handler) => double.handlers.set(channel, handler),
        removeHandler: (channel: string) => double.handlers.delete(channel),
      },
      session: {
        defaultSession: {
          setPermissionRequestHandler: (h: unknown) => {
            double.permissionHandler = h;
          },
          setPermissionCheckHandler: () => undefined,
          webRequest: { onHeadersReceived: () => undefined },
        },
      },
      shell: {
        openExternal: async (url: string) => void double.opened.push(url),
        openPath: async (p: string) => {
          double.opened.push(p);
          return '';
        },
      },
      nativeTheme: Object.assign(new EventEmitter(), { shouldUseDarkColors: false }),
      screen: { getPrimaryDisplay: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }) },
    };
  }
}

export interface TrayDoubleInstance extends EventEmitter {
  tooltip: string;
  menu: MenuItemRecord[];
  image: unknown;
}
export interface WindowDoubleInstance extends EventEmitter {
  webContents: WebContentsDouble;
  loaded: string | null;
  visible: boolean;
  options: unknown;
}
export interface NotificationDoubleInstance extends EventEmitter {
  options: { title: string; body: string };
  shown: boolean;
}
