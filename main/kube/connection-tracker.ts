/**
 * The connection state of one context as the user sees it (common/connection.ts). Transient failures show
 * as connecting (never live yet) or reconnecting, and become unreachable after `unreachableAfterAttempts`
 * failures in a row or `unreachableAfterMs` since the first of them, whichever comes first; credential,
 * permission and configuration failures show their own phase at once.
 */
import type { ConnectionPhase, ConnectionState } from '../../common/connection.ts';
import type { Clock } from './clock.ts';
import type { KubeError } from './errors.ts';

export interface ConnectionThresholds {
  unreachableAfterAttempts: number;
  unreachableAfterMs: number;
}

export const DEFAULT_THRESHOLDS: ConnectionThresholds = {
  unreachableAfterAttempts: 3,
  unreachableAfterMs: 30_000,
};

const iso = (ms: number) => new Date(ms).toISOString();

export class ConnectionTracker {
  #state: ConnectionState;
  #failingSince: number | null = null;

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
    this.#failingSince = null;
    this.#set({ phase: 'connecting', message: null, attempt: 0, retryAt: null });
  }

  live(): void {
    this.#failingSince = null;
    const now = iso(this.clock.now());
    this.#set({ phase: 'live', message: null, attempt: 0, retryAt: null, lastLiveAt: now });
  }

  /** A failure; `retryInMs` null when no retry is scheduled (it waits for the user or a kubeconfig change). */
  failed(err: KubeError, retryInMs: number | null): void {
    const now = this.clock.now();
    this.#failingSince ??= now;
    const attempt = this.#state.phase === 'live' ? 1 : this.#state.attempt + 1;
    let phase: ConnectionPhase = err.phase;
    if (err.transient) {
      const tooMany = attempt >= this.thresholds.unreachableAfterAttempts;
      const tooLong = now - this.#failingSince >= this.thresholds.unreachableAfterMs;
      if (tooMany || tooLong) phase = 'unreachable';
      else phase = this.#state.lastLiveAt === null ? 'connecting' : 'reconnecting';
    }
    this.#set({
      phase,
      message: err.message,
      ...(err.words ? { words: err.words } : {}),
      attempt,
      retryAt: retryInMs === null ? null : iso(now + retryInMs),
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
