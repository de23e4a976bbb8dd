/**
 * The shell's side of the engine host (common/host-protocol.ts): spawns it, forwards invokes and hands
 * on what it sends, and restarts it with backoff when it exits without being asked to. Electron-free:
 * the desktop shell passes a `spawn` that forks an Electron utility process; tests pass their own.
 *
 * An invoke never rejects: it answers an `InvokeReply`. While the host is starting or restarting,
 * invokes wait (at most INVOKE_WAIT_MAX of them) and go out once it is ready; one that was sent to a host
 * that then died fails with a sentence, and is not sent again (it may have acted: a context switch).
 */
import { Value } from '@sinclair/typebox/value';
import { backoffStep } from '../../common/backoff.ts';
import type { ErrorInfo } from '../../common/errors.ts';
import {
  HOST_MESSAGE_SCHEMA,
  type HostInit,
  type HostMessage,
  type HostReply,
  type ShellMessage,
  type ShellSettings,
} from '../../common/host-protocol.ts';
import type { PushChannel } from '../../common/ipc.ts';
import type { DesktopNotice } from '../../common/notification.ts';
import type { TrayModel } from '../../common/tray-menu.ts';
import type { Clock } from '../kube/clock.ts';
import type { EngineHostState } from './engine-line.ts';

/** One spawned host process, as the shell drives it. */
export interface HostChild {
  post(message: ShellMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Once, when the process has ended (code null when it was killed by a signal or never started). */
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

export interface EngineHostEvents {
  push: (channel: PushChannel, json: string) => void;
  tray: (model: TrayModel) => void;
  notify: (notice: DesktopNotice, context: string) => void;
  shell: (settings: ShellSettings) => void;
  /** A log line the host wrote (already redacted and gated by its Logger). */
  hostLog: (line: string) => void;
  state: (state: EngineHostState) => void;
}

export interface EngineHostClientOptions {
  spawn: () => HostChild;
  init: Omit<HostInit, 'type' | 'windowOpen'>;
  clock: Clock;
  /** The shell's own log of the host's life: exits, restarts, messages it dropped. */
  log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

/** The first restart waits this long; each one after a quick exit waits twice as long, up to the cap. */
export const RESTART_FIRST_MS = 500;
export const RESTART_MAX_MS = 30_000;
/** A host that stayed up this long is healthy again: the next crash restarts it after RESTART_FIRST_MS. */
export const STABLE_MS = 60_000;
/** A host that is not ready this long after its spawn is killed (and restarted). */
export const READY_TIMEOUT_MS = 30_000;
/** An invoke the host has not answered after this long fails with a sentence. */
export const INVOKE_TIMEOUT_MS = 60_000;
/** How long `stop()` waits for the host to save and exit before it kills it. */
export const STOP_GRACE_MS = 8_000;
export const INVOKE_WAIT_MAX = 200;

/** The delay before restart number `n` (1-based) of a streak of quick exits. */
export function restartDelayMs(n: number): number {
  return backoffStep({ initialMs: RESTART_FIRST_MS, maxMs: RESTART_MAX_MS, factor: 2 }, n - 1);
}

interface Pending {
  resolve: (reply: HostReply) => void;
  timer: unknown;
}
interface Waiting extends Pending {
  id: number;
  channel: string;
  args: unknown[];
}

const fail = (kind: ErrorInfo['kind'], message: string): HostReply => ({
  ok: false,
  error: { kind, message },
});
const DIED = fail('disconnected', 'The GPU Fleet engine stopped before it answered; it is restarting.');
const STOPPED = fail('disconnected', 'The GPU Fleet engine is not running.');
const BUSY = fail('disconnected', 'The GPU Fleet engine is restarting and has too many requests waiting.');
const TIMED_OUT = fail('timeout', `The GPU Fleet engine did not answer in ${INVOKE_TIMEOUT_MS / 1000} s.`);

type Listeners = { [K in keyof EngineHostEvents]: Set<EngineHostEvents[K]> };

export class EngineHostClient {
  readonly #opts: EngineHostClientOptions;
  #child: HostChild | null = null;
  #state: EngineHostState = { kind: 'stopped' };
  /** Exits in a row, each within STABLE_MS of its start. */
  #restarts = 0;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  #waiting: Waiting[] = [];
  #window: NonNullable<ShellSettings['window']> | null = null;
  #windowOpen = false;
  #timer: unknown = null;
  #stopping: Promise<void> | null = null;
  #dropped = 0;
  /** The live child has said `listening`. */
  #listened = false;
  /** The forwarding secrets (decrypted from the vault): given to every host after its `init`. */
  #secrets: Extract<ShellMessage, { type: 'secrets' }>['secrets'] = {};
  readonly #on: Listeners = {
    push: new Set(),
    tray: new Set(),
    notify: new Set(),
    shell: new Set(),
    hostLog: new Set(),
    state: new Set(),
  };

  constructor(opts: EngineHostClientOptions) {
    this.#opts = opts;
  }

  get state(): EngineHostState {
    return this.#state;
  }

  on<K extends keyof EngineHostEvents>(event: K, listener: EngineHostEvents[K]): () => void {
    const set = this.#on[event] as Set<EngineHostEvents[K]>;
    set.add(listener);
    return () => set.delete(listener);
  }

  start(): void {
    if (this.#child || this.#stopping) return;
    this.#spawn();
  }

  /** Sends one invoke of the window's contract; answers when the host does (or cannot). */
  invoke(channel: string, args: unknown[]): Promise<HostReply> {
    if (this.#stopping || this.#state.kind === 'stopped') return Promise.resolve(STOPPED);
    return new Promise((resolve) => {
      const waiting: Waiting = { id: this.#nextId++, resolve, timer: null, channel, args };
      waiting.timer = this.#opts.clock.setTimeout(() => this.#timeOut(waiting), INVOKE_TIMEOUT_MS);
      if (this.#state.kind === 'running' && this.#child) this.#send(waiting);
      else if (this.#waiting.length >= INVOKE_WAIT_MAX) {
        this.#opts.clock.clearTimeout(waiting.timer);
        resolve(BUSY);
      } else this.#waiting.push(waiting);
    });
  }

  /** The window's bounds to save; kept and sent once the host is up when it is not now. */
  saveWindow(window: NonNullable<ShellSettings['window']>): void {
    this.#window = window;
    if (this.#state.kind === 'running') this.#flushWindow();
  }

  /** Whether a window exists to push to; told to every host that starts. */
  setWindowOpen(open: boolean): void {
    this.#windowOpen = open;
    if (this.#state.kind === 'running') this.#child?.post({ type: 'window', open });
  }

  /**
   * The forwarding targets' secrets, the whole set: sent to the host now when it listens, and to every
   * host that starts later, right after its `init`. Kept in this process's memory only.
   */
  setSecrets(secrets: Extract<ShellMessage, { type: 'secrets' }>['secrets']): void {
    this.#secrets = { ...secrets };
    if (this.#child && this.#listened && this.#state.kind !== 'stopped')
      this.#child.post({ type: 'secrets', secrets: this.#secrets });
  }

  /** Asks the host to save and exit, kills it after STOP_GRACE_MS; no restart follows. */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    this.#clearTimer();
    for (const w of this.#waiting.splice(0)) this.#settle(w, STOPPED);
    const child = this.#child;
    this.#setState({ kind: 'stopped' });
    if (!child) return;
    // This await ends with the child's exit (the child is a live handle), never with the timer alone.
    await new Promise<void>((resolve) => {
      const grace = this.#opts.clock.setTimeout(() => child.kill(), STOP_GRACE_MS);
      child.onExit(() => {
        this.#opts.clock.clearTimeout(grace);
        resolve();
      });
      // A host that has not said `listening` would not hear a stop: it has nothing to save yet either.
      if (!this.#listened) child.kill();
      else
        try {
          child.post({ type: 'stop' });
        } catch {
          child.kill();
        }
    });
  }

  #spawn(): void {
    this.#setState({ kind: 'starting', restarts: this.#restarts });
    let child: HostChild;
    try {
      child = this.#opts.spawn();
    } catch (error) {
      this.#opts.log('error', 'the engine host could not be started', { error: String(error) });
      this.#exited(null, null);
      return;
    }
    this.#child = child;
    this.#listened = false;
    let ended = false;
    child.onExit((code) => {
      if (ended) return;
      ended = true;
      this.#exited(child, code);
    });
    child.onMessage((message) => {
      if (!ended) this.#receive(child, message);
    });
    this.#timer = this.#opts.clock.setTimeout(() => {
      this.#opts.log('error', 'the engine host did not get ready in time: killing it', {
        seconds: READY_TIMEOUT_MS / 1000,
      });
      child.kill();
    }, READY_TIMEOUT_MS);
  }

  #exited(child: HostChild | null, code: number | null): void {
    if (child !== this.#child) return;
    this.#child = null;
    this.#clearTimer();
    for (const [id, p] of this.#pending) {
      this.#pending.delete(id);
      this.#settle(p, DIED);
    }
    if (this.#stopping) return;
    this.#restarts += 1;
    const delay = restartDelayMs(this.#restarts);
    this.#opts.log('error', 'the engine host exited: restarting it', {
      exitCode: code,
      restarts: this.#restarts,
      inMs: delay,
    });
    this.#setState({
      kind: 'restarting',
      restarts: this.#restarts,
      retryAt: this.#opts.clock.now() + delay,
      exitCode: code,
    });
    this.#timer = this.#opts.clock.setTimeout(() => {
      this.#timer = null;
      if (!this.#stopping) this.#spawn();
    }, delay);
  }

  #receive(child: HostChild, raw: unknown): void {
    if (!Value.Check(HOST_MESSAGE_SCHEMA, raw)) {
      this.#dropped += 1;
      // Powers of two: the first few, then ever more rarely, so a broken host cannot flood the log.
      if ((this.#dropped & (this.#dropped - 1)) === 0)
        this.#opts.log('warn', 'dropped a message from the engine host that is not of the protocol', {
          dropped: this.#dropped,
        });
      return;
    }
    // The schema checks the envelope and the fields the shell reads (host-protocol.ts).
    const message = raw as HostMessage;
    switch (message.type) {
      case 'listening':
        if (child === this.#child) this.#listened = true;
        if (child === this.#child && this.#state.kind === 'starting') {
          child.post({ type: 'init', ...this.#opts.init, windowOpen: this.#windowOpen });
          child.post({ type: 'secrets', secrets: this.#secrets });
        }
        break;
      case 'ready':
        this.#ready(child);
        break;
      case 'reply': {
        const p = this.#pending.get(message.id);
        if (!p) break;
        this.#pending.delete(message.id);
        this.#settle(p, message.reply);
        break;
      }
      case 'stats':
        // Answers to a bench's own request (the shell asks for none).
        break;
      case 'push':
        this.#emit('push', message.channel, message.json);
        break;
      case 'tray':
        this.#emit('tray', message.model);
        break;
      case 'notify':
        this.#emit('notify', message.notice, message.context);
        break;
      case 'shell':
        this.#emit('shell', message.settings);
        break;
      case 'log':
        this.#emit('hostLog', message.line);
        break;
    }
  }

  #ready(child: HostChild): void {
    if (child !== this.#child || this.#state.kind === 'running') return;
    this.#clearTimer();
    const restarted = this.#restarts > 0;
    this.#setState({ kind: 'running' });
    if (restarted) this.#opts.log('info', 'the engine host is running again', { restarts: this.#restarts });
    // Healthy again once it has stayed up a while: the next crash starts a new backoff streak.
    this.#timer = this.#opts.clock.setTimeout(() => {
      this.#timer = null;
      this.#restarts = 0;
    }, STABLE_MS);
    this.#flushWindow();
    // It may have changed while the host started.
    child.post({ type: 'window', open: this.#windowOpen });
    for (const w of this.#waiting.splice(0)) this.#send(w);
  }

  #send(w: Waiting): void {
    const child = this.#child;
    if (!child) {
      this.#settle(w, DIED);
      return;
    }
    this.#pending.set(w.id, w);
    try {
      child.post({ type: 'invoke', id: w.id, channel: w.channel, args: w.args });
    } catch (error) {
      this.#pending.delete(w.id);
      this.#settle(w, fail('failed', `The request could not be sent to the engine: ${String(error)}`));
    }
  }

  #timeOut(w: Waiting): void {
    this.#pending.delete(w.id);
    const i = this.#waiting.indexOf(w);
    if (i >= 0) this.#waiting.splice(i, 1);
    w.resolve(TIMED_OUT);
  }

  #settle(p: Pending, reply: HostReply): void {
    this.#opts.clock.clearTimeout(p.timer);
    p.resolve(reply);
  }

  #flushWindow(): void {
    if (!this.#window || !this.#child) return;
    this.#child.post({ type: 'save-window', window: this.#window });
    this.#window = null;
  }

  #clearTimer(): void {
    if (this.#timer !== null) this.#opts.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #setState(state: EngineHostState): void {
    this.#state = state;
    this.#emit('state', state);
  }

  #emit<K extends keyof EngineHostEvents>(event: K, ...args: Parameters<EngineHostEvents[K]>): void {
    for (const listener of this.#on[event] as Set<(...a: Parameters<EngineHostEvents[K]>) => void>) {
      try {
        listener(...args);
      } catch (error) {
        this.#opts.log('error', `handling the engine host's ${event} failed`, { error: String(error) });
      }
    }
  }
}
