/**
 * A hand-made test double of the `electron` module: just enough of app, BrowserWindow, Tray, Menu,
 * Notification, ipcMain, protocol, session, shell and nativeImage for the main bundle to run under
 * plain Node, recording what the app did so tests can assert on it.
 *
 * The window's page is modelled as Electron loads it: `loadURL` returns at once, the page arrives later
 * (through the app's protocol handler when its scheme is handled), and only then does the renderer
 * subscribe to pushes and say `renderer:ready` (as App.svelte does through the preload). A push sent
 * before that is `lost`, as in Electron, where `webContents.send` to a page without listeners is
 * dropped; one sent after is `delivered`. IPC events carry `senderFrame` (the page's top frame).
 * Pushes travel as JSON text, as the preload receives them; `delivered` and `lost` hold them parsed.
 *
 * `utilityProcess.fork` forks a real Node child (so killing it is a real SIGKILL) with Electron's
 * `process.parentPort` and utility-side `electron` module put in first by utility-child.ts; a double
 * that follows a test's ManualClock moves the child's virtual clock with it. `app.quit()` emits
 * `before-quit` with an event a handler may `preventDefault()`, as Electron does; only an unprevented
 * quit counts as `quitCalled`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settleReply } from '../../common/ipc.ts';
import type { ManualClock } from '../helpers/manual-clock.ts';
import { SafeStorageDouble } from './safe-storage-double.ts';
import { CLOCK_ENV, type ClockMessage } from './utility-clock.ts';

const UTILITY_CHILD = path.resolve('test/electron/utility-child.ts');

export interface FrameDouble {
  url: string;
  parent: FrameDouble | null;
}
export interface IpcEventDouble {
  sender: { id: number };
  senderFrame: FrameDouble | null;
}
type Handler = (event: IpcEventDouble, ...args: unknown[]) => unknown;
type ProtocolHandler = (request: { url: string }) => Response | Promise<Response>;
/** What the renderer says over ipcRenderer.send once it has subscribed (common/ipc.ts RENDERER_READY). */
const RENDERER_READY = 'renderer:ready';
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
  /** Every push main sent, whether or not the page was listening. */
  readonly sent: { channel: string; payload: unknown }[] = [];
  /** Pushes that reached the page's listeners. */
  readonly delivered: { channel: string; payload: unknown }[] = [];
  /** Pushes sent while the page had not subscribed yet: Electron drops them. */
  readonly lost: { channel: string; payload: unknown }[] = [];
  /** The page's top frame; its url is what was loaded once it arrived. */
  readonly mainFrame: FrameDouble = { url: '', parent: null };
  /** True while a loaded page listens to pushes. */
  subscribed = false;
  windowOpenHandler: unknown = null;
  destroyed = false;
  /** Main sends JSON text (what the preload parses); the page's side is recorded parsed. */
  send(channel: string, json: unknown): void {
    const payload: unknown = typeof json === 'string' ? JSON.parse(json) : { notText: json };
    this.sent.push({ channel, payload });
    (this.subscribed ? this.delivered : this.lost).push({ channel, payload });
  }
  isDestroyed() {
    return this.destroyed;
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
      let prevented = false;
      this.app.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) this.app.quitCalled = true;
    },
    setLoginItemSettings: (settings: unknown) => this.loginItems.push(settings),
  });
  readonly trays: TrayDoubleInstance[] = [];
  readonly windows: WindowDoubleInstance[] = [];
  readonly notifications: NotificationDoubleInstance[] = [];
  readonly handlers = new Map<string, Handler>();
  readonly listeners = new Map<string, Handler[]>();
  /** Schemes registered as privileged, and whether that happened before the app was ready. */
  readonly privilegedSchemes: {
    scheme: string;
    privileges: Record<string, boolean>;
    beforeReady: boolean;
  }[] = [];
  readonly protocolHandlers = new Map<string, ProtocolHandler>();
  /** Page loads that failed (the protocol answered an error), by URL. */
  readonly failedLoads: string[] = [];
  isReady = false;
  readonly opened: string[] = [];
  readonly loginItems: unknown[] = [];
  permissionHandler: unknown = null;
  /** Every utility process forked, in order (the live one is the last that has not exited). */
  readonly utilityProcesses: UtilityProcessDouble[] = [];
  /** Emit 'shutdown' on it as the OS does before a reboot or shutdown (Linux, macOS). */
  readonly powerMonitor = new EventEmitter();
  /** Electron's safeStorage: the OS keychain's encryption, usable once the app is ready. */
  readonly safeStorage = new SafeStorageDouble(() => this.isReady);
  /** A test's virtual clock that forked children follow (desktop-harness.ts sets it). */
  clock: ManualClock | null = null;
  private readonly ready: Promise<void>;

  constructor() {
    this.ready = new Promise((resolve) =>
      setImmediate(() => {
        this.isReady = true;
        this.app.emit('ready');
        resolve();
      }),
    );
  }

  /**
   * Simulates `ipcRenderer.invoke` from a webContents with the given id: the handler's raw reply. The
   * sender frame is that window's top frame (for an id of no window: a top frame of the app's page).
   */
  async reply(channel: string, senderId: number, ...args: unknown[]): Promise<unknown> {
    const contents = this.windows.find((w) => w.webContents.id === senderId)?.webContents;
    const frame = contents?.mainFrame ?? { url: 'gpu-fleet://app/index.html', parent: null };
    return this.replyFrom(channel, { sender: { id: senderId }, senderFrame: frame }, ...args);
  }

  /** Simulates `ipcRenderer.invoke` with the IPC event given whole (to test the frame check). */
  async replyFrom(channel: string, event: IpcEventDouble, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(event, ...args);
  }

  /** Simulates `ipcRenderer.send` from a webContents: every `ipcMain.on` listener of the channel. */
  emitIpc(channel: string, event: IpcEventDouble, ...args: unknown[]): void {
    for (const listener of this.listeners.get(channel) ?? []) listener(event, ...args);
  }

  /** The page at `url` arrives: through the app's protocol handler when its scheme has one. */
  async arrive(contents: WebContentsDouble, url: string): Promise<boolean> {
    const handler = this.protocolHandlers.get(new URL(url).protocol.replace(/:$/, ''));
    if (!handler) return url.startsWith('file://') || url.startsWith('http://');
    const res = await handler({ url });
    await res.arrayBuffer();
    return res.ok && !contents.destroyed;
  }

  /** Quits the app and waits until every utility process has exited (killed after `graceMs`). */
  async close(graceMs = 10_000): Promise<void> {
    this.app.quit();
    const live = this.utilityProcesses.filter((u) => u.exitCode === undefined);
    await Promise.all(
      live.map(
        (u) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => u.kill(), graceMs);
            u.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            if (u.exitCode !== undefined) resolve();
          }),
      ),
    );
  }

  /** Forks `modulePath` as Electron's utilityProcess.fork would, with the parent port put in first. */
  forkUtility(
    modulePath: string,
    args: string[],
    options: { env?: NodeJS.ProcessEnv },
  ): UtilityProcessDouble {
    const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env) };
    const clock = this.clock;
    if (clock) env[CLOCK_ENV] = String(clock.now());
    const child = fork(modulePath, args, {
      env,
      execArgv: ['--import', 'tsx', '--import', UTILITY_CHILD],
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const up = new UtilityProcessDouble(child);
    if (clock) {
      const off = clock.onAdvance((now) =>
        up.send({ electronDoubleClock: true, now } satisfies ClockMessage),
      );
      up.once('exit', off);
    }
    this.utilityProcesses.push(up);
    return up;
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
      /** Returns at once, as Electron's does; the page arrives, subscribes and says ready later. */
      loadURL(url: string) {
        this.loaded = url;
        const contents = this.webContents;
        return new Promise<void>((resolve, reject) => {
          setImmediate(() => {
            // The old page (if any) is gone from here on; the new one listens once it has arrived.
            contents.subscribed = false;
            contents.emit('did-start-navigation', { url, isMainFrame: true, isSameDocument: false });
            contents.emit('did-start-loading');
            double.arrive(contents, url).then(
              (ok) => {
                if (!ok) {
                  double.failedLoads.push(url);
                  reject(new Error(`ERR_FAILED loading ${url}`));
                  return;
                }
                contents.mainFrame.url = url;
                contents.subscribed = true;
                contents.emit('did-finish-load');
                this.emit('ready-to-show');
                double.emitIpc(RENDERER_READY, { sender: contents, senderFrame: contents.mainFrame });
                resolve();
              },
              (error: unknown) => reject(error),
            );
          });
        });
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
        this.webContents.destroyed = true;
        this.webContents.subscribed = false;
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
      constructor(readonly options: { title: string; body: string; id?: string; groupId?: string }) {
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
        on: (channel: string, listener: Handler) => {
          double.listeners.set(channel, [...(double.listeners.get(channel) ?? []), listener]);
        },
        handle: (channel: string, handler: Handler) => double.handlers.set(channel, handler),
        removeHandler: (channel: string) => double.handlers.delete(channel),
      },
      protocol: {
        registerSchemesAsPrivileged: (schemes: { scheme: string; privileges: Record<string, boolean> }[]) => {
          for (const s of schemes) double.privilegedSchemes.push({ ...s, beforeReady: !double.isReady });
        },
        handle: (scheme: string, handler: ProtocolHandler) => {
          if (!double.isReady) throw new Error('protocol.handle before the app is ready');
          double.protocolHandlers.set(scheme, handler);
        },
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
      utilityProcess: {
        fork: (modulePath: string, args: string[] = [], options: { env?: NodeJS.ProcessEnv } = {}) =>
          double.forkUtility(modulePath, args, options),
      },
      nativeTheme: Object.assign(new EventEmitter(), { shouldUseDarkColors: false }),
      powerMonitor: this.powerMonitor,
      safeStorage: this.safeStorage,
      screen: { getPrimaryDisplay: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }) },
    };
  }
}

/** Electron's UtilityProcess over a forked Node child: postMessage, kill, and 'spawn' / 'message' / 'exit'. */
export class UtilityProcessDouble extends EventEmitter {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  /** Undefined while it runs; the exit code (null when a signal ended it) once it has exited. */
  exitCode: number | null | undefined = undefined;
  /** Messages the parent posted to it, in order (the clock's excluded). */
  readonly posted: unknown[] = [];
  readonly #child: ChildProcess;

  constructor(child: ChildProcess) {
    super();
    this.#child = child;
    this.pid = child.pid;
    this.stdout = child.stdout;
    this.stderr = child.stderr;
    child.on('spawn', () => this.emit('spawn'));
    child.on('message', (message: unknown) => this.emit('message', message));
    child.on('exit', (code) => {
      this.exitCode = code;
      this.emit('exit', code);
    });
    child.on('error', () => undefined);
  }

  postMessage(message: unknown): void {
    this.posted.push(message);
    this.send(message);
  }

  send(message: unknown): void {
    // Electron drops a message to a process that has gone; Node's send would throw.
    if (this.#child.connected) this.#child.send(message as never, () => undefined);
  }

  /** A real SIGKILL: the host gets no chance to save or say goodbye. */
  kill(): boolean {
    return this.#child.kill('SIGKILL');
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
  options: { title: string; body: string; id?: string; groupId?: string };
  shown: boolean;
}
