/**
 * Keeps browser mode's event stream open, and says whether it is. The stream breaking (the server
 * stopped: its socket closes, so the browser reports it at once; on loopback nothing half-opens) is
 * `down` immediately; then, with backoff, a cheap probe asks the server whether it is back before a
 * new stream is opened. A probe answered 401 is a server restarted with another session token
 * (`token-changed`): it is probed on, at the slowest pace, as opening the new address in another tab
 * sets the cookie this page then uses too. A stream that opens again is `live` and tells `onBack`, so
 * the window reads what it missed without a reload.
 */
import { type BackoffSchedule, backoffStep } from '../../common/backoff.ts';

/** `connecting`: the first stream is not open yet. */
export type LinkState = 'connecting' | 'live' | 'down' | 'token-changed';

export type ProbeResult = 'ok' | 'token-changed' | 'down';

/** The part of EventSource the keeper uses. */
export interface StreamSource {
  addEventListener(type: string, listener: (event: unknown) => void): void;
  close(): void;
}

export interface StreamDeps {
  open(): StreamSource;
  probe(): Promise<ProbeResult>;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export interface LinkStatus {
  state: LinkState;
  /** When the stream broke (epoch ms), while it is not live. */
  since: number | null;
  /** When the next try is due (epoch ms), while it is not live. */
  retryAt: number | null;
}

/** Waits between tries: 0.5 s doubling to 8 s (a probe on loopback costs next to nothing). */
export const RETRY_FIRST_MS = 500;
export const RETRY_MAX_MS = 8_000;
const RETRY: BackoffSchedule = { initialMs: RETRY_FIRST_MS, maxMs: RETRY_MAX_MS, factor: 2 };

/** The wait before try `attempt` (0-based), by the app's one backoff formula. */
export function retryDelay(attempt: number): number {
  return backoffStep(RETRY, attempt);
}

/** What a probe's HTTP answer means: 401 is the guard refusing this page's session token. */
export function probeResult(status: number | null): ProbeResult {
  if (status === 401) return 'token-changed';
  return status !== null && status >= 200 && status < 300 ? 'ok' : 'down';
}

export class StreamKeeper {
  readonly #deps: StreamDeps;
  readonly #onStatus: (status: LinkStatus) => void;
  readonly #onBack: () => void;
  #source: StreamSource | null = null;
  #status: LinkStatus = { state: 'connecting', since: null, retryAt: null };
  #attempt = 0;
  #timer: unknown = null;
  /** A stream broke since the last one opened: the next to open is a reconnection. */
  #broke = false;
  #stopped = false;

  /** `attach` adds the page's listeners to every stream opened; `onBack` hears each reconnection. */
  constructor(
    deps: StreamDeps,
    readonly attach: (source: StreamSource) => void,
    onStatus: (status: LinkStatus) => void,
    onBack: () => void,
  ) {
    this.#deps = deps;
    this.#onStatus = onStatus;
    this.#onBack = onBack;
  }

  get status(): LinkStatus {
    return this.#status;
  }

  /** Opens the first stream (again a no-op once open). */
  start(): void {
    if (this.#source === null && this.#timer === null && !this.#stopped) this.#open();
  }

  stop(): void {
    this.#stopped = true;
    this.#source?.close();
    this.#source = null;
    if (this.#timer !== null) this.#deps.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #open(): void {
    const source = this.#deps.open();
    this.#source = source;
    this.attach(source);
    source.addEventListener('open', () => {
      if (this.#source !== source) return;
      this.#attempt = 0;
      this.#set({ state: 'live', since: null, retryAt: null });
      if (this.#broke) this.#onBack();
      this.#broke = false;
    });
    source.addEventListener('error', () => {
      if (this.#source !== source) return;
      // The browser would retry on its own, at its pace and blind to a 401: this keeper does it instead.
      source.close();
      this.#source = null;
      this.#broke = true;
      this.#retry(this.#status.state === 'token-changed' ? 'token-changed' : 'down');
    });
  }

  #retry(state: 'down' | 'token-changed'): void {
    if (this.#stopped) return;
    const now = this.#deps.now();
    const delay = state === 'token-changed' ? RETRY_MAX_MS : retryDelay(this.#attempt++);
    this.#set({ state, since: this.#status.since ?? now, retryAt: now + delay });
    this.#timer = this.#deps.setTimeout(() => {
      this.#timer = null;
      void this.#probe();
    }, delay);
  }

  async #probe(): Promise<void> {
    const result = await this.#deps.probe().catch((): ProbeResult => 'down');
    if (this.#stopped) return;
    if (result === 'ok') this.#open();
    else this.#retry(result);
  }

  #set(status: LinkStatus): void {
    this.#status = status;
    this.#onStatus(status);
  }
}
