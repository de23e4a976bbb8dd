/**
 * The connection state of one context as the user sees it (common/connection.ts). Transient failures show
 * as connecting (never live yet) or reconnecting, and become unreachable after `unreachableAfterAttempts`
 * failures in a row or `unreachableAfterMs` since the first of them, whichever comes first; credential,
 * permission and configuration failures show their own phase at once.
 *
 * A context that was live stays live while reconnecting has failed for less than `reconnectingAfterMs`:
 * nothing is emitted for a failure that the next attempt repairs (a watch cut by a proxy, an API-server
 * restart of a few seconds). Only when failing lasts that long does the state change, to the phase the
 * rule above gives at that moment (docs/connection.md).
 */
import type { ConnectionPhase, ConnectionState } from '../../common/connection.ts';
import type { Clock } from './clock.ts';
import type { KubeError } from './errors.ts';

export interface ConnectionThresholds {
  unreachableAfterAttempts: number;
  unreachableAfterMs: number;
  /** A live context shows a transient failure only once failing has lasted this long. */
  reconnectingAfterMs: number;
}

/** How long reconnecting may fail before the user is told (docs/connection.md). */
export const RECONNECTING_AFTER_MS = 20_000;

export const DEFAULT_THRESHOLDS: ConnectionThresholds = {
  unreachableAfterAttempts: 3,
  unreachableAfterMs: 30_000,
  reconnectingAfterMs: RECONNECTING_AFTER_MS,
};

const iso = (ms: number) => new Date(ms).toISOString();

export class ConnectionTracker {
  #state: ConnectionState;
  #failingSince: number | null = null;
  /** Failed attempts in a row, counted also while they are not shown yet. */
  #attempts = 0;
  /** The latest failure not shown yet (a live context inside its quiet time), and its timer. */
  #held: { err: KubeError; retryAt: string | null } | null = null;
  #timer: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly emit: (s: ConnectionState) => void,
    private readonly thresholds: ConnectionThresholds = DEFAULT_THRESHOLDS,
  ) {
    this.#state = {
      phase: 'connecting',
      message: null,
      since: iso(clock.now()),
      lastLiveAt: null,
      attempt: 0,
      retryAt: null,
    };
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Start (or restart after a config change): connecting, keeping when we were last live. */
  connecting(): void {
    this.#recovered();
    this.#set({ phase: 'connecting', message: null, attempt: 0, retryAt: null });
  }

  live(): void {
    this.#recovered();
    const now = iso(this.clock.now());
    this.#set({ phase: 'live', message: null, attempt: 0, retryAt: null, lastLiveAt: now });
  }

  /** A failure; `retryInMs` null when no retry is scheduled (it waits for the user or a kubeconfig change). */
  failed(err: KubeError, retryInMs: number | null): void {
    const now = this.clock.now();
    this.#failingSince ??= now;
    this.#attempts++;
    const retryAt = retryInMs === null ? null : iso(now + retryInMs);
    const quietUntil = this.#failingSince + this.thresholds.reconnectingAfterMs;
    if (err.transient && this.#state.phase === 'live' && now < quietUntil) {
      this.#held = { err, retryAt };
      this.#timer ??= this.clock.setTimeout(() => this.#showHeld(), quietUntil - now);
      return;
    }
    this.#show(err, retryAt);
  }

  /** Cancels the quiet-time timer (the watcher stopped); nothing is emitted after this. */
  dispose(): void {
    this.#recovered();
  }

  #recovered(): void {
    this.#failingSince = null;
    this.#attempts = 0;
    this.#held = null;
    this.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #showHeld(): void {
    this.#timer = null;
    const held = this.#held;
    this.#held = null;
    if (held) this.#show(held.err, held.retryAt);
  }

  #show(err: KubeError, retryAt: string | null): void {
    this.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#held = null;
    const now = this.clock.now();
    const since = this.#failingSince ?? now;
    const attempt = this.#attempts;
    let phase: ConnectionPhase = err.phase;
    if (err.transient) {
      const tooMany = attempt >= this.thresholds.unreachableAfterAttempts;
      const tooLong = now - since >= this.thresholds.unreachableAfterMs;
      if (tooMany || tooLong) phase = 'unreachable';
      else phase = this.#state.lastLiveAt === null ? 'connecting' : 'reconnecting';
    }
    this.#set({
      phase,
      message: err.message,
      ...(err.words ? { words: err.words } : {}),
      attempt,
      retryAt,
    });
  }

  #set(next: Omit<ConnectionState, 'since' | 'lastLiveAt'> & { lastLiveAt?: string | null }): void {
    const prev = this.#state;
    const state: ConnectionState = {
      phase: next.phase,
      message: next.message,
      ...(next.words ? { words: next.words } : {}),
      since: prev.phase === next.phase ? prev.since : iso(this.clock.now()),
      lastLiveAt: next.lastLiveAt === undefined ? prev.lastLiveAt : next.lastLiveAt,
      attempt: next.attempt,
      retryAt: next.retryAt,
    };
    const same =
      state.phase === prev.phase &&
      state.message === prev.message &&
      state.attempt === prev.attempt &&
      state.retryAt === prev.retryAt;
    this.#state = state;
    if (!same) this.emit(state);
  }
}
