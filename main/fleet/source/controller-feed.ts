/**
 * Follows the in-cluster controller of one context: its Lease read by GET every LEASE_POLL_MS
 * (lease-poll.ts), a ListWatcher on the `cluster` GpuInventory (the generic kube/ machinery, narrowed
 * to the one object), and the source policy
 * (source-policy.ts) run on every change and at the time the Lease would go stale. The context monitor
 * asks it which source to read and takes the controller's inventory from it.
 *
 * A Lease or GpuInventory that cannot be read for good (403, 401, no such resource) counts as
 * unreadable at once; a transient failure keeps what was last seen (the watcher and the poll retry on
 * their own). The inventory watcher waiting for the user after such an error, and the Lease poll after
 * a 401/403, are retried every RECHECK_MS, so a controller installed later is found without a restart.
 */
import { clusterText } from '../../../common/cluster-text.ts';
import type { ConnectionState } from '../../../common/connection.ts';
import type { GpuInventoryStatus } from '../../../common/inventory.ts';
import type { InventorySource } from '../../../common/settings.ts';
import type { Clock } from '../../kube/clock.ts';
import type { ContextClient } from '../../kube/context-client.ts';
import { ListWatcher, type ListWatcherOptions, type WatcherEvent } from '../../kube/list-watcher.ts';
import { type InventoryFacts, inventoryResource, type LeaseFacts } from './controller-objects.ts';
import { LeasePoller, type LeaseRead } from './lease-poll.ts';
import {
  decide,
  HANDOVER_MS,
  INITIAL_POLICY,
  type InventoryView,
  type LeaseView,
  type PolicyState,
  type Seen,
} from './source-policy.ts';

/** How often watchers stopped by a lasting error (404, bad configuration) are tried again. */
export const RECHECK_MS = 5 * 60_000;

/** How often the Lease is read while a released Lease waits for a new holder. */
export const HANDOVER_POLL_MS = 2000;

export interface ControllerFeedOptions {
  setting: Exclude<InventorySource, 'nodes'>;
  namespace: string;
  group: string;
  clock: Clock;
  makeClient: () => ContextClient;
  watcher?: Omit<ListWatcherOptions, 'clock'> | undefined;
  /** How often the Lease is read (default LEASE_POLL_MS; the bench compresses time). */
  leasePollMs?: number | undefined;
}

export interface ControllerFeedListener {
  /** The active source or its sentence changed. */
  source(): void;
  /** The controller's inventory changed (whatever the active source). */
  inventory(): void;
  /** The GpuInventory watch's connection changed. */
  connection(): void;
}

export class ControllerFeed {
  readonly #opts: ControllerFeedOptions;
  readonly #leasePoller: LeasePoller;
  readonly #inventoryWatcher: ListWatcher<InventoryFacts>;
  #lease: LeaseView = {
    seen: { kind: 'pending' },
    holder: null,
    durationSeconds: null,
    renewedAt: null,
    freshAt: null,
    releasedAt: null,
  };
  #leaseRaw: LeaseFacts | null = null;
  #inventory: InventoryView = { seen: { kind: 'pending' }, problem: null };
  #status: GpuInventoryStatus | null = null;
  /** `#status` as JSON: a watch event's status is compared with it, not re-serialised each time. */
  #statusJson = 'null';
  #state: PolicyState = INITIAL_POLICY;
  #message: string | null = null;
  #startedAt = 0;
  #timer: unknown = null;
  #recheck: unknown = null;
  #running = false;

  constructor(
    opts: ControllerFeedOptions,
    private readonly listener: ControllerFeedListener,
  ) {
    this.#opts = opts;
    const watcherOpts = { ...opts.watcher, clock: opts.clock };
    this.#leasePoller = new LeasePoller(
      {
        namespace: opts.namespace,
        clock: opts.clock,
        makeClient: opts.makeClient,
        pollMs: opts.leasePollMs,
        recheckMs: RECHECK_MS,
      },
      (r) => this.#onLease(r),
    );
    this.#inventoryWatcher = new ListWatcher(
      inventoryResource(opts.group),
      opts.makeClient,
      (e) => this.#onInventory(e),
      watcherOpts,
    );
  }

  get active(): PolicyState['active'] {
    return this.#state.active;
  }
  get message(): string | null {
    return this.#message;
  }
  /** The controller's last valid inventory (null until one was read). */
  get inventory(): GpuInventoryStatus | null {
    return this.#status;
  }
  get connection(): ConnectionState {
    return this.#inventoryWatcher.connection;
  }
  /** The Lease as the policy sees it; null until it was seen. */
  get lease(): LeaseView | null {
    return this.#lease.seen.kind === 'present' ? this.#lease : null;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#startedAt = this.#opts.clock.now();
    this.#leasePoller.start();
    this.#inventoryWatcher.start();
    this.#armRecheck();
    this.#decide();
  }

  stop(): void {
    this.#running = false;
    this.#leasePoller.stop();
    this.#inventoryWatcher.stop();
    this.#opts.clock.clearTimeout(this.#timer);
    this.#opts.clock.clearTimeout(this.#recheck);
    this.#timer = this.#recheck = null;
  }

  retryNow(): void {
    this.#leasePoller.retryNow();
    this.#inventoryWatcher.retryNow();
  }

  #onLease(r: LeaseRead): void {
    if (r.kind === 'unreadable') this.#lease = { ...this.#lease, seen: r.seen };
    else this.#seeLease(r.lease);
    this.#decide();
  }

  /** Counts renewals on our clock: see source-policy.ts. */
  #seeLease(l: LeaseFacts | null): void {
    if (l === null) {
      this.#leaseRaw = null;
      this.#lease = {
        seen: { kind: 'missing' },
        holder: null,
        durationSeconds: null,
        renewedAt: null,
        freshAt: null,
        releasedAt: null,
      };
      return;
    }
    const now = this.#opts.clock.now();
    const prev = this.#leaseRaw;
    let renewedAt = this.#lease.renewedAt;
    if (l.renewedAt === null) renewedAt = null;
    else if (prev === null || prev.renewedAt === null) renewedAt = Math.min(l.renewedAt, now);
    else if (prev.renewedAt !== l.renewedAt) renewedAt = now;
    // The freshness mark is counted on our clock the same way.
    let freshAt = this.#lease.freshAt;
    if (l.freshAt === null) freshAt = null;
    else if (prev === null || prev.freshAt === null) freshAt = Math.min(l.freshAt, now);
    else if (prev.freshAt !== l.freshAt) freshAt = now;
    // A release counts from the first read that showed it (a hand-over: source-policy.ts).
    const releasedAt = l.holder === null ? (this.#lease.releasedAt ?? now) : null;
    this.#leaseRaw = l;
    this.#lease = {
      seen: { kind: 'present' },
      holder: l.holder,
      durationSeconds: l.durationSeconds,
      renewedAt,
      freshAt,
      releasedAt,
    };
    // While handing over, read the Lease sooner so a new holder is seen well within HANDOVER_MS.
    if (releasedAt !== null && now - releasedAt < HANDOVER_MS) this.#leasePoller.soon(HANDOVER_POLL_MS);
  }

  #onInventory(e: WatcherEvent<InventoryFacts>): void {
    if (e.type === 'connection') {
      const why = lastingFailure(e.state, 'GpuInventory');
      if (why !== null) this.#inventory = { seen: why, problem: null };
      this.listener.connection();
    } else if (e.type === 'replace') this.#seeInventory(e.objects[0] ?? null);
    else if (e.type === 'upsert') this.#seeInventory(e.object);
    else if (e.type === 'delete') this.#seeInventory(null);
    else return;
    this.#decide();
  }

  #seeInventory(i: InventoryFacts | null): void {
    if (i === null) {
      this.#inventory = { seen: { kind: 'missing' }, problem: null };
      return;
    }
    this.#inventory = { seen: { kind: 'present' }, problem: i.problem };
    if (i.status === null) return;
    const json = JSON.stringify(i.status);
    if (json === this.#statusJson) return;
    this.#status = i.status;
    this.#statusJson = json;
    this.listener.inventory();
  }

  #decide(): void {
    if (!this.#running) return;
    const clock = this.#opts.clock;
    const d = decide(this.#state, {
      setting: this.#opts.setting,
      now: clock.now(),
      startedAt: this.#startedAt,
      namespace: this.#opts.namespace,
      group: this.#opts.group,
      lease: this.#lease,
      inventory: this.#inventory,
    });
    const changed = d.state.active !== this.#state.active || d.message !== this.#message;
    this.#state = d.state;
    this.#message = d.message;
    clock.clearTimeout(this.#timer);
    this.#timer =
      d.nextCheckAt === null
        ? null
        : clock.setTimeout(() => this.#decide(), Math.max(0, d.nextCheckAt - clock.now()));
    if (changed) this.listener.source();
  }

  #armRecheck(): void {
    this.#recheck = this.#opts.clock.setTimeout(() => {
      if (!this.#running) return;
      if (this.#inventoryWatcher.connection.phase === 'config-error') this.#inventoryWatcher.retryNow();
      this.#armRecheck();
    }, RECHECK_MS);
  }
}

/** A failure that will not pass by waiting: 403, 401, no such resource (404) or a bad configuration. */
function lastingFailure(state: ConnectionState, what: string): Seen | null {
  if (state.phase === 'forbidden') return { kind: 'unreadable', why: 'forbidden, 403' };
  if (state.phase === 'unauthorized') return { kind: 'unreadable', why: 'unauthorized, 401' };
  if (state.phase !== 'config-error') return null;
  if (/\(404\)/.test(state.message ?? ''))
    return { kind: 'unreadable', why: `no ${what} resource on the server, 404` };
  return { kind: 'unreadable', why: clusterText(state.message, 160) || 'configuration error' };
}
