/**
 * One monitored context: watcher → node cache → inventory → history, level-based. Watch events only
 * mark the cache dirty; a leading-edge throttle then recomputes the whole inventory from the cache
 * (an isolated flip is seen at once; a burst costs one more pass, not one per event).
 */
import { clusterText, SENTENCE_MAX } from '../../common/cluster-text.ts';
import type { ConnectionState } from '../../common/connection.ts';
import type { ContextSnapshot, HistoryPoint, SourceState, WritebackState } from '../../common/fleet.ts';
import type { ClusterFree } from '../../common/free-gpus.ts';
import { translator } from '../../common/i18n/translator.ts';
import type { GpuInventoryStatus, LastSeenLabels } from '../../common/inventory.ts';
import { displayServerUrl } from '../../common/server-url.ts';
import { unknownFree } from '../inventory/free-gpus.ts';
import { freeFromSummary } from '../inventory/free-summary.ts';
import {
  appendHistory,
  buildInventory,
  forgetLabels,
  rememberAllLabels,
  retainLabels,
  withObservedAt,
} from '../inventory/index.ts';
import type { NodeFacts } from '../inventory/node-facts.ts';
import type { Clock } from '../kube/clock.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { ListWatcher, type ListWatcherOptions } from '../kube/list-watcher.ts';
import { ObjectCache } from '../kube/object-cache.ts';
import { primeFirstBuild, SLICED_BUILD_MIN } from './first-build.ts';
import { FreeGpuFeed } from './free-gpu-feed.ts';
import { NodeEventFeed, type NodeEventFeedOptions } from './node-event-feed.ts';
import { NODES, type NodeWatcher, type NodeWatcherEvent } from './node-watch.ts';
import { ControllerFeed } from './source/controller-feed.ts';
import { type SourceConfig, sourceState } from './source/monitor-source.ts';
import { freshMarkOldAt } from './source/source-policy.ts';
import { Throttle } from './throttle.ts';

export interface ContextMonitorOptions {
  context: string;
  server: string | null;
  makeClient: () => ContextClient;
  clock: Clock;
  watcher?: Omit<ListWatcherOptions, 'clock'>;
  /** Recompute at most this often while events stream in. */
  coalesceMs?: number;
  historyMax?: number;
  /** The last inventory known from a previous run: shown (stale) until the cluster answers. */
  lastKnown?: { inventory: GpuInventoryStatus; history: HistoryPoint[] } | null;
  /** Where the inventory comes from (source/); nodes when absent. */
  source?: SourceConfig | undefined;
  /** Watch the GPU pods for free GPUs while the nodes are watched (the per-context setting); on when absent. */
  freeGpus?: boolean;
  /** Watch the Kubernetes events about GPU nodes while monitoring (for the timeline); off when absent. */
  nodeEvents?: Pick<NodeEventFeedOptions, 'onEvents' | 'onForbidden'>;
}

export type MonitorChange = 'inventory' | 'connection' | 'ignored' | 'free';

const FRESH: ReadonlySet<ConnectionState['phase']> = new Set(['live', 'connecting']);
const OFF: WritebackState = { phase: 'off', message: null, lastWriteAt: null, writes: 0, skipped: 0 };
const OFF_FREE = unknownFree('off');
const LISTING_FREE = unknownFree('listing');

export class ContextMonitor {
  readonly #opts: ContextMonitorOptions;
  readonly #cache = new ObjectCache(NODES);
  readonly #watcher: NodeWatcher;
  /** The controller's free-GPU summary as figures (and marked stale), kept while the summary object is the same. */
  #fromController: { summary: object; free: ClusterFree; stale: ClusterFree | null } | null = null;
  /** Wakes the engine when the controller's freshness mark gets old (nothing else would say so then). */
  #staleTimer: { at: number; handle: unknown } | null = null;
  /** The GPU pods and the free GPUs made from them; null when the setting turned them off. */
  readonly #free: FreeGpuFeed | null;
  /** The events about GPU nodes; null when nobody records them. */
  readonly #events: NodeEventFeed | null;
  /** The inventory's node names, made once per inventory. */
  #gpuNodes: { of: GpuInventoryStatus | null; names: ReadonlySet<string> } = { of: null, names: new Set() };
  /** Follows the in-cluster controller (source auto or controller); null for source nodes. */
  readonly #feed: ControllerFeed | null;
  /** What is read now: the node watch, the controller's GpuInventory, or nothing (controller stale). */
  #active: 'nodes' | 'controller' | null = null;
  #lastSeen: ReadonlyMap<string, LastSeenLabels> = new Map();
  #inventory: GpuInventoryStatus | null;
  #history: HistoryPoint[];
  #connection: ConnectionState;
  #writeback: WritebackState = OFF;
  #synced = false;
  #builtVersion = -1;
  /** The first build of a large cluster is under way across turns (first-build.ts); counts runs. */
  #priming = 0;
  #confirmed = false;
  #ignored = 0;
  readonly #throttle: Throttle;
  /** The server address as the window may show it: no userinfo, no query (common/server-url.ts). */
  readonly #shownServer: string | null;

  constructor(
    opts: ContextMonitorOptions,
    private readonly onChange: (change: MonitorChange, monitor: ContextMonitor) => void,
  ) {
    this.#opts = opts;
    this.#shownServer = opts.server === null ? null : displayServerUrl(opts.server);
    this.#inventory = opts.lastKnown?.inventory ?? null;
    this.#history = opts.lastKnown?.history ? [...opts.lastKnown.history] : [];
    this.#watcher = new ListWatcher(NODES, opts.makeClient, (event) => this.#onWatcher(event), {
      ...opts.watcher,
      clock: opts.clock,
    });
    this.#connection = this.#watcher.connection;
    this.#free =
      opts.freeGpus === false
        ? null
        : new FreeGpuFeed({ makeClient: opts.makeClient, clock: opts.clock, watcher: opts.watcher }, () =>
            this.onChange('free', this),
          );
    this.#events = opts.nodeEvents
      ? new NodeEventFeed({
          makeClient: opts.makeClient,
          clock: opts.clock,
          watcher: opts.watcher,
          isGpuNode: (node) => this.#isGpuNode(node),
          ...opts.nodeEvents,
        })
      : null;
    this.#throttle = new Throttle(opts.clock, opts.coalesceMs ?? 100, () => this.#recompute());
    const source = opts.source;
    this.#feed =
      source && source.setting !== 'nodes'
        ? new ControllerFeed(
            {
              ...source,
              setting: source.setting,
              clock: opts.clock,
              makeClient: opts.makeClient,
              watcher: opts.watcher,
            },
            {
              source: () => this.#onSource(),
              inventory: () => this.#active === 'controller' && this.#adoptController(),
              connection: () => this.#onFeedConnection(),
            },
          )
        : null;
  }

  /** The source read now: nodes, the controller, or null (source controller while it is not usable). */
  get activeSource(): 'nodes' | 'controller' | null {
    return this.#active;
  }

  get context(): string {
    return this.#opts.context;
  }
  get inventory(): GpuInventoryStatus | null {
    return this.#inventory;
  }
  get connection(): ConnectionState {
    return this.#connection;
  }
  /** True once the cluster has answered a full list in this run (the inventory is not just last-known). */
  get synced(): boolean {
    // While the first build runs, the inventory is not yet the one that list returned.
    return this.#synced && this.#priming === 0;
  }

  #isGpuNode(node: string): boolean {
    const inv = this.#inventory;
    if (this.#gpuNodes.of !== inv)
      this.#gpuNodes = { of: inv, names: new Set(inv?.nodes.map((n) => n.name) ?? []) };
    return this.#gpuNodes.names.has(node);
  }

  start(): void {
    this.#events?.start();
    if (this.#feed) this.#feed.start();
    else {
      this.#active = 'nodes';
      this.#watcher.start();
      this.#free?.start();
    }
  }

  stop(): void {
    this.#events?.stop();
    this.#feed?.stop();
    if (this.#staleTimer) this.#opts.clock.clearTimeout(this.#staleTimer.handle);
    this.#staleTimer = null;
    this.#watcher.stop();
    this.#free?.stop();
    this.#throttle.cancel();
    this.#priming = 0;
  }

  /** Skip the backoff wait (the user pressed "retry", or the machine woke from sleep). */
  retryNow(): void {
    this.#events?.retryNow();
    this.#feed?.retryNow();
    if (this.#active === 'nodes') {
      this.#watcher.retryNow();
      this.#free?.retryNow();
    }
  }

  /**
   * Whether this context's own pods watch is forbidden (its nodes are watched, not read from a controller):
   * read from the watch's state, so asking costs nothing, unlike `free`, which builds the figures.
   */
  get podsForbidden(): boolean {
    return this.#active === 'nodes' && this.#free?.connection.phase === 'forbidden';
  }

  /**
   * Free GPUs as the snapshot shows them: from the controller's status while it is read (absent if it has
   * none), marked stale while the controller's freshness mark is old (freshMarkOldAt).
   */
  get free(): ClusterFree | undefined {
    if (this.#active === 'controller') {
      const summary = this.#inventory?.free_gpus;
      if (summary === undefined) return undefined;
      if (this.#fromController?.summary !== summary)
        this.#fromController = { summary, free: freeFromSummary(summary), stale: null };
      const m = this.#fromController;
      const oldAt = freshMarkOldAt(this.#feed?.lease ?? null);
      const stale = m.free.state === 'known' && (oldAt === null || this.#opts.clock.now() >= oldAt);
      if (!stale && oldAt !== null) this.#staleTimerAt(oldAt);
      if (!stale) return m.free;
      m.stale ??= { ...m.free, stale: true };
      return m.stale;
    }
    if (this.#active !== 'nodes') return undefined;
    // Until the first build of a large cluster ends, its figures would be built from underived nodes in one task.
    if (this.#free !== null && this.#priming > 0) return LISTING_FREE;
    return this.#free === null ? OFF_FREE : this.#free.free(this.#cache.view);
  }

  #staleTimerAt(at: number): void {
    if (this.#staleTimer?.at === at) return;
    if (this.#staleTimer) this.#opts.clock.clearTimeout(this.#staleTimer.handle);
    const handle = this.#opts.clock.setTimeout(
      () => {
        this.#staleTimer = null;
        this.onChange('free', this);
      },
      Math.max(0, at - this.#opts.clock.now()),
    );
    this.#staleTimer = { at, handle };
  }

  /** The write-back state as the window shows it: its message (often the server's words) and owners through the text gate. */
  setWriteback(state: WritebackState): void {
    const { owners, ...rest } = state;
    const shownOwners = (owners ?? [])
      .slice(0, 4)
      .map((o) => clusterText(o, 80))
      .filter((o) => o !== '');
    this.#writeback = {
      ...rest,
      message: state.message === null ? null : clusterText(state.message, SENTENCE_MAX) || null,
      ...(shownOwners.length > 0 ? { owners: shownOwners } : {}),
    };
  }

  /**
   * Stale: last-known from an earlier run, or the cluster stopped answering. Right after the first list
   * the phase is still `connecting` (the watch opens next): that inventory is fresh. Read without a
   * snapshot, which would also build the free-GPU figures (all nodes, all pods) in the same task.
   */
  get stale(): boolean {
    return (
      this.#inventory !== null && (!this.#synced || this.#priming > 0 || !FRESH.has(this.#connection.phase))
    );
  }

  snapshot(): ContextSnapshot {
    const free = this.free;
    return {
      context: this.#opts.context,
      server: this.#shownServer,
      connection: this.#connection,
      inventory: this.#inventory,
      stale: this.stale,
      history: this.#history,
      // The controller writes the GpuInventory while the tray reads it: the tray does not write back then.
      writeback: this.#active === 'controller' && this.#writeback.phase !== 'off' ? OFF : this.#writeback,
      source: this.#sourceState(),
      ...(free ? { free } : {}),
      ...(this.#ignored > 0
        ? { ignoredNodes: { count: this.#ignored, message: ignoredSentence(this.#ignored) } }
        : {}),
    };
  }

  #sourceState(): SourceState {
    const paused = this.#active === 'controller' && this.#writeback.phase !== 'off';
    return sourceState(this.#opts.source, this.#active, this.#feed, paused);
  }

  /** The feed chose a source: start or stop the node watch, and take the controller's inventory. */
  #onSource(): void {
    const next = this.#feed?.active ?? null;
    if (next !== this.#active) {
      this.#active = next;
      this.#synced = false;
      // The first inventory from the new source is news even if equal (it ends the stale look).
      this.#confirmed = false;
      if (next === 'nodes') {
        this.#connection = this.#watcher.connection;
        this.#watcher.start();
        this.#free?.start();
      } else {
        this.#watcher.stop();
        this.#free?.stop();
        this.#throttle.cancel();
        if (this.#feed) this.#connection = this.#feed.connection;
        if (next === 'controller') this.#adoptController();
      }
    }
    this.onChange('connection', this);
  }

  #onFeedConnection(): void {
    if (this.#active === 'nodes' || !this.#feed) return;
    this.#connection = this.#feed.connection;
    this.onChange('connection', this);
  }

  /** The controller's inventory as this context's: the same history and change events as from nodes. */
  #adoptController(): void {
    const status = this.#feed?.inventory ?? null;
    if (status === null) return;
    this.#synced = true;
    const merged = withObservedAt(status, this.#inventory);
    if (merged === this.#inventory && this.#confirmed) return;
    this.#confirmed = true;
    this.#inventory = merged;
    const now = new Date(this.#opts.clock.now()).toISOString();
    this.#history = appendHistory(this.#history, merged, now, this.#opts.historyMax ?? 2000);
    this.onChange('inventory', this);
  }

  #onWatcher(event: NodeWatcherEvent): void {
    if (this.#active !== 'nodes') return;
    if (event.type === 'connection') {
      this.#connection = event.state;
      this.onChange('connection', this);
      return;
    }
    if (event.type === 'refused') {
      this.#ignored = event.count;
      this.onChange('ignored', this);
      return;
    }
    // A deleted node's last-seen labels go with it: a node re-created under the same name is another
    // machine, and must not show the old one's GPUs while it waits for its own labels. A delete missed
    // while the watch was down shows as a new uid under a known name (in a relist or an upsert).
    if (event.type === 'delete') this.#lastSeen = forgetLabels(this.#lastSeen, event.name);
    else
      for (const node of event.type === 'upsert' ? [event.object] : event.objects)
        this.#forgetIfReplaced(node);
    this.#cache.apply(event);
    if (event.type === 'replace') {
      this.#synced = true;
      this.#lastSeen = retainLabels(this.#lastSeen, new Set(event.objects.map((n) => n.name)));
      // The first full list must show at once; later relists are coalesced like any change.
      if (this.#builtVersion === -1) {
        if (this.#cache.view.size < SLICED_BUILD_MIN) this.#recompute();
        else void this.#firstBuild();
        return;
      }
    }
    // Changes during the first build are in the cache it reads when it ends.
    if (this.#priming > 0) return;
    if (this.#cache.view.version !== this.#builtVersion) this.#throttle.request();
  }

  /** The first inventory of a large cluster: derived a slice per turn, then built from the memos at once. */
  async #firstBuild(): Promise<void> {
    const run = ++this.#priming;
    const view = this.#cache.view;
    const done = await primeFirstBuild([...view.values()], {
      current: (slice) => slice.filter((f) => view.get(f.name) === f),
      remember: (nodes) => {
        this.#lastSeen = rememberAllLabels(this.#lastSeen, nodes);
        return this.#lastSeen;
      },
      slots: this.#free !== null,
      // The free figures memoized on the node cache's version: the snapshot after the build reads them.
      ...(this.#free === null ? {} : { finish: () => this.#free?.free(view) }),
      cancelled: () => this.#priming !== run || this.#active !== 'nodes',
    });
    if (this.#priming !== run) return;
    this.#priming = 0;
    if (done) this.#recompute();
  }

  #forgetIfReplaced(node: NodeFacts): void {
    const old = this.#cache.view.get(node.name);
    if (old !== undefined && old.uid !== node.uid) this.#lastSeen = forgetLabels(this.#lastSeen, node.name);
  }

  #recompute(): void {
    this.#builtVersion = this.#cache.view.version;
    const now = new Date(this.#opts.clock.now()).toISOString();
    this.#lastSeen = rememberAllLabels(this.#lastSeen, this.#cache.view.values());
    const next = buildInventory(this.#cache.view.values(), this.#lastSeen, now);
    const merged = this.#inventory ? withObservedAt(next, this.#inventory) : next;
    // An unchanged inventory is news once: when the first list confirms the last-known one (no longer stale).
    if (merged === this.#inventory && this.#confirmed) {
      // A node change the inventory does not show (a taint) may still change the free GPUs.
      if (this.#free !== null) this.onChange('free', this);
      return;
    }
    this.#confirmed = true;
    this.#inventory = merged;
    this.#history = appendHistory(this.#history, merged, now, this.#opts.historyMax ?? 2000);
    this.onChange('inventory', this);
  }
}

/** "3 nodes with invalid names were ignored." */
const EN = translator('en');

/** English, as the CLI and the log say it; the window words `count` from the same key. */
export function ignoredSentence(count: number): string {
  return EN.t('card.ignoredNodes', { count });
}
