/**
 * The list+watch loop of one context (our own, not client-node's informer, which stops on most errors):
 * list in pages and hand the whole set over at once, watch from the list's resourceVersion with bookmarks,
 * a server timeout and a stall timer; re-watch from the last resourceVersion when a stream ends, relist on
 * 410, and retry failures with the Backoff policy while reporting the ConnectionState. Failures never
 * empty the node set: the last inventory stays until the cluster answers again.
 *
 * Configuration errors (bad TLS settings, a missing or failing exec plugin…) are not retried on a timer:
 * some exec plugins open a browser to log in, and repeating that every 30 s would be worse than waiting
 * for the user (retryNow) or a kubeconfig change (the caller builds a new watcher).
 */
import type { ConnectionState } from '../../common/connection.ts';
import { type NodeFacts, trimNode } from '../inventory/node-facts.ts';
import { Backoff } from './backoff.ts';
import { type Clock, systemClock } from './clock.ts';
import { ConnectionTracker, DEFAULT_THRESHOLDS } from './connection-tracker.ts';
import { ContextClient, type ContextClientOptions } from './context-client.ts';
import { toKubeError } from './error-classify.ts';
import { KubeError } from './errors.ts';
import type { ResolvedContext } from './kubeconfig-types.ts';
import { listNodes } from './node-list.ts';
import { type RunningWatch, watchNodes } from './node-watch-stream.ts';
import { type NodeWatcherOptions, pickThresholds, type WatcherEvent } from './node-watcher-types.ts';

export type { NodeWatcherOptions, WatcherEvent } from './node-watcher-types.ts';

/** A watch that ended sooner than this after opening counts as a failure (no hot re-watch loop). */
const MIN_WATCH_MS = 1000;

export class NodeWatcher {
  readonly #clock: Clock;
  readonly #tracker: ConnectionTracker;
  readonly #backoff: Backoff;
  readonly #opts: NodeWatcherOptions;
  #client: ContextClient | null = null;
  #gen = 0;
  #rv: string | null = null;
  #watch: RunningWatch | null = null;
  #sleep: { timer: unknown; wake: () => void } | null = null;
  #expiredInARow = 0;

  constructor(
    private readonly makeClient: () => ContextClient,
    private readonly onEvent: (e: WatcherEvent) => void,
    opts: NodeWatcherOptions = {},
  ) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#backoff = new Backoff(this.#clock, opts.backoff, opts.random);
    const thresholds = { ...DEFAULT_THRESHOLDS, ...pickThresholds(opts) };
    this.#tracker = new ConnectionTracker(
      this.#clock,
      (state) => this.onEvent({ type: 'connection', state }),
      thresholds,
    );
  }

  get connection(): ConnectionState {
    return this.#tracker.state;
  }

  /** The resourceVersion the next watch starts from (null: the next pass lists). */
  get resourceVersion(): string | null {
    return this.#rv;
  }

  /** Starts (or, after stop(), resumes from the last resourceVersion; a 410 then relists). */
  start(): void {
    if (this.#gen % 2 === 1) return;
    const gen = ++this.#gen;
    if (this.#tracker.state.phase === 'connecting')
      this.onEvent({ type: 'connection', state: this.#tracker.state });
    else this.#tracker.connecting();
    void this.#loop(gen);
  }

  /** Aborts the watch and every timer; no events after this returns. */
  stop(): void {
    if (this.#gen % 2 === 0) return;
    this.#gen++;
    this.#watch?.stop();
    this.#watch = null;
    this.#wake();
    this.#client?.close();
    this.#client = null;
  }

  /** Tries again now (also after a configuration error, which waits for this). */
  retryNow(): void {
    this.#backoff.reset();
    if (this.#gen % 2 === 0) return;
    if (this.#sleep) this.#wake();
  }

  #wake(): void {
    const s = this.#sleep;
    this.#sleep = null;
    if (!s) return;
    this.#clock.clearTimeout(s.timer);
    s.wake();
  }

  async #loop(gen: number): Promise<void> {
    const alive = () => this.#gen === gen;
    while (alive()) {
      try {
        this.#client ??= this.makeClient();
        if (this.#rv === null) await this.#list(gen);
        if (!alive()) return;
        await this.#watchOnce(gen);
      } catch (err) {
        if (!alive()) return;
        await this.#failed(gen, toKubeError(err, this.#client?.server ?? ''));
      }
    }
  }

  async #list(gen: number): Promise<void> {
    const client = this.#client;
    if (!client) return;
    // 100 nodes (~1.3 MB of JSON) a page keeps each parse short: the tray stays responsive while a
    // 5,000-node cluster syncs (500-node pages stalled the event loop 60–110 ms each; see npm run bench).
    const pageSize = this.#opts.pageSize ?? 100;
    const r = await listNodes(
      client,
      this.#trim,
      pageSize,
      this.#opts.listTimeoutMs ?? 60_000,
      () => this.#gen !== gen,
    );
    if (!r || this.#gen !== gen) return;
    this.#rv = r.resourceVersion;
    this.onEvent({ type: 'replace', nodes: r.nodes });
  }

  async #watchOnce(gen: number): Promise<void> {
    const client = this.#client;
    const rv = this.#rv;
    if (!client || rv === null) return;
    const [lo, hi] = this.#opts.watchSeconds ?? [240, 300];
    const random = this.#opts.random ?? Math.random;
    let openedAt: number | null = null;
    const w = watchNodes({
      client,
      clock: this.#clock,
      resourceVersion: rv,
      timeoutSeconds: Math.round(lo + random() * (hi - lo)),
      stallTimeoutMs: this.#opts.stallTimeoutMs ?? 90_000,
      trim: this.#trim,
      onOpen: () => {
        openedAt = this.#clock.now();
        this.#expiredInARow = 0;
        this.#backoff.markHealthy();
        this.#tracker.live();
      },
      onChange: (c) => this.onEvent(c),
      onResourceVersion: (v) => {
        this.#rv = v;
      },
    });
    this.#watch = w;
    const { outcome, error } = await w.done.finally(() => {
      if (this.#watch === w) this.#watch = null;
    });
    if (this.#gen !== gen || outcome === 'stopped') return;
    if (outcome === 'expired') return this.#expired();
    if (outcome === 'stalled') {
      throw new KubeError(
        'timeout',
        `The watch on ${new URL(client.server).host} went silent; reconnecting.`,
      );
    }
    const lasted = openedAt === null ? 0 : this.#clock.now() - openedAt;
    if (lasted < MIN_WATCH_MS) {
      throw error ?? new KubeError('unreachable', `${new URL(client.server).host} closed the watch at once.`);
    }
  }

  /** 410: relist at once, unless the server keeps saying it (then back off like any failure). */
  #expired(): void {
    this.#rv = null;
    this.#expiredInARow++;
    if (this.#expiredInARow > 3)
      throw new KubeError('server', 'The API server keeps expiring the node list (410).');
  }

  async #failed(gen: number, err: KubeError): Promise<void> {
    if (err.kind === 'expired') {
      this.#expired();
      return;
    }
    if (err.phase === 'config-error') {
      this.#tracker.failed(err, null);
      // A bad configuration will not fix itself; the next attempt makes a new client.
      this.#client?.close();
      this.#client = null;
      await this.#wait(gen, null);
      return;
    }
    const delay = Math.max(this.#backoff.next(), err.retryAfterMs ?? 0);
    this.#tracker.failed(err, delay);
    await this.#wait(gen, delay);
  }

  #wait(gen: number, ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      if (this.#gen !== gen) return resolve();
      const timer = ms === null ? null : this.#clock.setTimeout(() => this.#wake(), ms);
      this.#sleep = { timer, wake: resolve };
    });
  }

  #trim = (raw: unknown): NodeFacts | null => (this.#opts.trim ?? trimNode)(raw);
}

/**
 * A watcher for one kubeconfig context. The client is built on each (re)connect attempt, so a context
 * that cannot be used as written reports config-error instead of throwing here.
 */
export function watchContextNodes(
  context: ResolvedContext,
  onEvent: (e: WatcherEvent) => void,
  opts: NodeWatcherOptions & { client?: ContextClientOptions } = {},
): NodeWatcher {
  const { client, ...watcherOpts } = opts;
  const clock = opts.clock;
  return new NodeWatcher(() => new ContextClient(context, { clock, ...client }), onEvent, watcherOpts);
}
