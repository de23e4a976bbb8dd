/**
 * Reads the in-cluster controller's Lease by GET every LEASE_POLL_MS instead of watching it. The leader
 * renews every 2 s, so a watch sends the tray a whole Lease (~650 B) every 2 s; a poll every 10 s sends
 * a fifth of that, and the policy (source-policy.ts) still falls back within 2 × 15 s + 10 s of the last
 * renewal, since a renewal counts from the poll that saw it.
 *
 * Polls keep a fixed cadence from start() (a slow answer does not push the next ones later). A lasting
 * failure (401, 403, a bad configuration) is reported at once and tried again after `recheckMs`; a 404
 * means there is no Lease (no controller, or no coordination.k8s.io on the server); a transient one
 * (network, timeout, 5xx, 429) keeps what was last read and retries with backoff.
 */
import { CONTROLLER_LEASE_NAME } from '../../../common/settings.ts';
import { Backoff } from '../../kube/backoff.ts';
import type { Clock } from '../../kube/clock.ts';
import type { ContextClient } from '../../kube/context-client.ts';
import { isKubeError } from '../../kube/errors.ts';
import { type LeaseFacts, trimLease } from './controller-objects.ts';
import type { Seen } from './source-policy.ts';

/** How often the tray reads the controller's Lease. */
export const LEASE_POLL_MS = 10_000;
/** Longest wait for one GET of the Lease. */
const GET_TIMEOUT_MS = 10_000;

export type LeaseRead =
  /** The Lease as read; null when there is none. */
  | { kind: 'read'; lease: LeaseFacts | null }
  /** A failure that waiting will not fix. */
  | { kind: 'unreadable'; seen: Extract<Seen, { kind: 'unreadable' }> };

export interface LeasePollOptions {
  namespace: string;
  clock: Clock;
  makeClient: () => ContextClient;
  pollMs?: number | undefined;
  recheckMs: number;
  random?: () => number;
}

/** The Leases of a namespace (the controller creates its Lease here). */
export function leasesPath(namespace: string): string {
  return `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases`;
}

/** The controller's Lease, as the tray reads it and the controller holds it. */
export function leasePath(namespace: string): string {
  return `${leasesPath(namespace)}/${CONTROLLER_LEASE_NAME}`;
}

/** What one GET's failure means for the policy: null when it is transient (keep the last read). */
export function leaseFailure(err: unknown): LeaseRead | null {
  if (!isKubeError(err)) return null;
  if (err.status === 404 || err.kind === 'not-found') return { kind: 'read', lease: null };
  if (err.kind === 'forbidden')
    return { kind: 'unreadable', seen: { kind: 'unreadable', why: 'forbidden, 403' } };
  if (err.kind === 'unauthorized')
    return { kind: 'unreadable', seen: { kind: 'unreadable', why: 'unauthorized, 401' } };
  if (err.transient) return null;
  return { kind: 'unreadable', seen: { kind: 'unreadable', why: err.message || 'configuration error' } };
}

export class LeasePoller {
  readonly #o: LeasePollOptions;
  readonly #pollMs: number;
  readonly #backoff: Backoff;
  #client: ContextClient | null = null;
  #timer: unknown = null;
  #nextAt = 0;
  #running = false;
  #inFlight = false;
  /** Wait before the next poll if shorter than the cadence's (asked for by soon()); null otherwise. */
  #soonMs: number | null = null;

  constructor(
    opts: LeasePollOptions,
    private readonly onRead: (r: LeaseRead) => void,
  ) {
    this.#o = opts;
    this.#pollMs = opts.pollMs ?? LEASE_POLL_MS;
    this.#backoff = new Backoff(opts.clock, { initialMs: 1000, maxMs: 60_000, resetAfterMs: 0 }, opts.random);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#nextAt = this.#o.clock.now();
    this.#poll();
  }

  stop(): void {
    this.#running = false;
    this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#client?.close();
    this.#client = null;
  }

  /** Reads the Lease now (the user asked to retry). */
  retryNow(): void {
    if (!this.#running || this.#inFlight) return;
    this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#poll();
  }

  /** The next poll comes within `ms` (once), instead of at the next tick when that is later. */
  soon(ms: number): void {
    this.#soonMs = ms;
    if (this.#inFlight || !this.#running) return;
    this.#scheduleTick();
  }

  #poll(): void {
    if (!this.#running) return;
    const client = this.#client ?? this.#buildClient();
    if (client === null) return;
    this.#inFlight = true;
    client
      .getJson(leasePath(this.#o.namespace), 'reading the controller Lease', GET_TIMEOUT_MS)
      .then(
        (raw) => {
          this.#backoff.reset();
          this.#report({ kind: 'read', lease: trimLease(raw) });
          this.#scheduleTick();
        },
        (err: unknown) => {
          const read = leaseFailure(err);
          if (read === null) return this.#after(this.#backoff.next());
          this.#backoff.reset();
          this.#report(read);
          if (read.kind === 'unreadable') this.#after(this.#o.recheckMs);
          else this.#scheduleTick();
        },
      )
      .catch(() => {
        // A throwing listener must not stop the polls: retry on the cadence.
        this.#scheduleTick();
      })
      .finally(() => {
        this.#inFlight = false;
      });
  }

  /**
   * The client, built on the first poll. A context whose client cannot be built (it names a cluster no
   * file defines…) is an unreadable Lease with its sentence, tried again later: never a throw out of
   * start(), which would take the whole engine down with this one context.
   */
  #buildClient(): ContextClient | null {
    try {
      this.#client = this.#o.makeClient();
      return this.#client;
    } catch (err) {
      const read = leaseFailure(err);
      if (read === null) {
        this.#after(this.#backoff.next());
        return null;
      }
      this.#report(read);
      this.#after(read.kind === 'unreadable' ? this.#o.recheckMs : this.#pollMs);
      return null;
    }
  }

  #report(r: LeaseRead): void {
    if (this.#running) this.onRead(r);
  }

  /** The next poll on the fixed cadence, skipping ticks already past. */
  #scheduleTick(): void {
    const now = this.#o.clock.now();
    while (this.#nextAt <= now) this.#nextAt += this.#pollMs;
    const soon = this.#soonMs;
    this.#soonMs = null;
    this.#after(soon === null ? this.#nextAt - now : Math.min(soon, this.#nextAt - now));
  }

  #after(ms: number): void {
    if (!this.#running) return;
    this.#o.clock.clearTimeout(this.#timer);
    this.#timer = this.#o.clock.setTimeout(() => this.#poll(), ms);
  }
}
