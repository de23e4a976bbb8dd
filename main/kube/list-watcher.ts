/**
 * The list+watch loop of one collection in one context (our own, not client-node's informer, which stops
 * on most errors), generic over what is kept: the caller hands in a WatchedResource (path, words, trim),
 * and the watcher knows nothing of what the objects mean. List in pages and hand the whole set over at once, watch from the list's resourceVersion with bookmarks,
 * a server timeout and a stall timer; re-watch from the last resourceVersion when a stream ends, while
 * reporting the ConnectionState. Failures never
 * empty the set: the last objects stay until the cluster answers again.
 *
 * Silence is not failure: a real API server sends nothing at all on a quiet cluster (a bookmark only once
 * its resourceVersion moved). When a watch has sent no line for stallTimeoutMs, the watcher asks the server
 * for one object with the same credentials on a fresh connection (the probe); if it answers, the silent
 * watch (quiet, or half-open: a connection that stopped answering without closing) is replaced by a new
 * one from the same resourceVersion without a word. Only a probe that fails is a failure.
 *
 * The loop never throws out: every failure of a list or watch (a thrown error, an ERROR event, a 410, a
 * failed probe, a watch that ends at once) goes to the one error policy (watch-error-policy.ts), which decides
 * relist, retry after a backoff, or wait for the user (configuration errors). The connection goes live when a
 * watch opens, but after a failure only with the first event or bookmark (or once the watch has held for
 * LIVE_AFTER_MS), so a server that fails every watch at once never shows as live.
 *
 * Objects the trim refuses (for nodes: a name no real API server stores, not an object) are not dropped
 * silently: the watcher counts them (by name, so a MODIFIED is not counted twice and a DELETED takes one back)
 * and reports the count in a `refused` event whenever it changes.
 */
import { clusterText } from '../../common/cluster-text.ts';
import type { ConnectionState } from '../../common/connection.ts';
import { Backoff } from './backoff.ts';
import { type Clock, systemClock } from './clock.ts';
import { ConnectionTracker, DEFAULT_THRESHOLDS } from './connection-tracker.ts';
import { ContextClient, type ContextClientOptions } from './context-client.ts';
import { toKubeError } from './error-classify.ts';
import { KubeError } from './errors.ts';
import type { ResolvedContext } from './kubeconfig-types.ts';
import { listObjects } from './list-pages.ts';
import { type ListWatcherOptions, pickThresholds, type WatcherEvent } from './list-watcher-types.ts';
import { WatchErrorPolicy } from './watch-error-policy.ts';
import { type RunningWatch, watchObjects } from './watch-stream.ts';
import type { WatchedResource } from './watched-resource.ts';

export type { ListWatcherOptions, WatcherEvent } from './list-watcher-types.ts';

/** A watch that ended sooner than this after opening counts as a failure (no hot re-watch loop). */
const MIN_WATCH_MS = 1000;
/** A watch that ended cleanly without a single event or bookmark sooner than this counts as a failure too. */
const MIN_QUIET_WATCH_MS = 10_000;
/** After a failure, a reopened watch is shown live on its first event or bookmark, or after this long. */
const LIVE_AFTER_MS = 5000;
/** Refused names remembered (each cut to REFUSED_KEY characters); past this the count stops growing. */
const MAX_REFUSED = 10_000;
/** The probe after a silent watch: a one-object list gets this long. */
const PROBE_TIMEOUT_MS = 10_000;
const REFUSED_KEY = 300;

export class ListWatcher<T> {
  readonly #clock: Clock;
  readonly #tracker: ConnectionTracker;
  readonly #backoff: Backoff;
  readonly #policy: WatchErrorPolicy;
  readonly #opts: ListWatcherOptions;
  #client: ContextClient | null = null;
  #gen = 0;
  #running = false;
  #rv: string | null = null;
  #watch: RunningWatch | null = null;
  #sleep: { timer: unknown; wake: () => void } | null = null;
  /** Refused objects of the current list and watch: their (cut) names, and those without a string name. */
  #refused = new Set<string>();
  #refusedNameless = 0;
  #refusedShown = 0;

  constructor(
    private readonly resource: WatchedResource<T>,
    private readonly makeClient: () => ContextClient,
    private readonly onEvent: (e: WatcherEvent<T>) => void,
    opts: ListWatcherOptions = {},
  ) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#backoff = new Backoff(this.#clock, opts.backoff, opts.random);
    this.#policy = new WatchErrorPolicy(this.#backoff, this.#clock);
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
    this.#gen++;
    if (this.#tracker.state.phase === 'connecting')
      this.onEvent({ type: 'connection', state: this.#tracker.state });
    else this.#tracker.connecting();
    this.#run();
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
    this.#tracker.dispose();
  }

  /** Tries again now (also after a configuration error, which waits for this). */
  retryNow(): void {
    this.#policy.reset();
    if (this.#gen % 2 === 0) return;
    if (this.#sleep) this.#wake();
    // The loop never ends on its own while started; should it ever have, this revives it.
    if (!this.#running) this.#run();
  }

  #run(): void {
    const gen = this.#gen;
    this.#running = true;
    this.#loop(gen)
      .catch((err: unknown) => {
        // #loop catches everything it calls; this only guards against a bug in the loop itself: the
        // failure is shown, and the loop starts again after a backoff (or on retryNow).
        if (this.#gen !== gen) return;
        this.#running = false;
        const delay = this.#backoff.next();
        this.#tracker.failed(this.#asKubeError(err), delay);
        const timer = this.#clock.setTimeout(() => {
          if (this.#sleep?.timer === timer) this.#sleep = null;
          if (this.#gen === gen && !this.#running) this.#run();
        }, delay);
        this.#sleep = { timer, wake: () => {} };
      })
      .finally(() => {
        if (this.#gen === gen) this.#running = false;
      });
  }

  #wake(): void {
    const s = this.#sleep;
    this.#sleep = null;
    if (!s) return;
    this.#clock.clearTimeout(s.timer);
    s.wake();
  }

  /** List (when there is no resourceVersion), watch, and hand every failure to the one error policy. */
  async #loop(gen: number): Promise<void> {
    const alive = () => this.#gen === gen;
    while (alive()) {
      let failure: KubeError | null;
      try {
        this.#client ??= this.makeClient();
        if (this.#rv === null) await this.#list(gen);
        failure = alive() ? await this.#watchOnce(gen) : null;
      } catch (err) {
        failure = this.#asKubeError(err);
      }
      if (!alive()) return;
      if (failure) await this.#failed(gen, failure);
    }
  }

  #asKubeError(err: unknown): KubeError {
    if (err instanceof KubeError) return err;
    try {
      return toKubeError(err, this.#client?.server ?? '');
    } catch {
      return new KubeError(
        'protocol',
        `The ${this.resource.singular} watch failed unexpectedly (${clusterText(String(err))}).`,
      );
    }
  }

  async #list(gen: number): Promise<void> {
    const client = this.#client;
    if (!client) return;
    // 100 nodes (~1.3 MB of JSON) a page keeps each parse short: the tray stays responsive while a
    // 5,000-node cluster syncs (500-node pages stalled the event loop 60–110 ms each; see npm run bench).
    const pageSize = this.#opts.pageSize ?? 100;
    const refused = new Set<string>();
    let nameless = 0;
    const trim = (raw: unknown): T | null => {
      if (this.resource.skip?.(raw) === true) return null;
      const kept = this.resource.trim(raw);
      if (kept === null) {
        const key = refusedKey(raw);
        if (key === null) nameless++;
        else if (refused.size < MAX_REFUSED) refused.add(key);
      }
      return kept;
    };
    const r = await listObjects(
      client,
      { ...this.resource, trim },
      {
        pageSize,
        eagerNext: this.#opts.eagerNext === true,
        requestTimeoutMs: this.#opts.listTimeoutMs ?? 60_000,
        clock: this.#clock,
        deadlineMs: this.#opts.listDeadlineMs,
        isCancelled: () => this.#gen !== gen,
      },
    );
    if (!r || this.#gen !== gen) return;
    this.#rv = r.resourceVersion;
    this.onEvent({ type: 'replace', objects: r.items });
    this.#refused = refused;
    this.#refusedNameless = nameless;
    this.#reportRefused();
  }

  /** One watch; resolves with why it failed, or null when it ended normally (re-watch at once). */
  async #watchOnce(gen: number): Promise<KubeError | null> {
    const client = this.#client;
    const rv = this.#rv;
    if (!client || rv === null) return null;
    const host = new URL(client.server).host;
    const [lo, hi] = this.#opts.watchSeconds ?? [240, 300];
    const random = this.#opts.random ?? Math.random;
    let openedAt: number | null = null;
    let progressed = false;
    let liveTimer: unknown = null;
    const progress = () => {
      if (progressed) return;
      progressed = true;
      this.#policy.progress();
      this.#clock.clearTimeout(liveTimer);
      if (this.#gen === gen) this.#tracker.live();
    };
    const w = watchObjects({
      client,
      clock: this.#clock,
      resourceVersion: rv,
      timeoutSeconds: Math.round(lo + random() * (hi - lo)),
      stallTimeoutMs: this.#opts.stallTimeoutMs ?? 90_000,
      resource: {
        ...this.resource,
        trim: (raw) => {
          if (this.resource.skip?.(raw) === true) return null;
          const kept = this.resource.trim(raw);
          const key = kept === null ? refusedKey(raw) : null;
          if (key !== null && this.#refused.size < MAX_REFUSED) {
            this.#refused.add(key);
            this.#reportRefused();
          }
          return kept;
        },
      },
      onOpen: () => {
        openedAt = this.#clock.now();
        // After a failure, an open alone proves little (a broken server opens every watch and fails it
        // at once): live comes with the first event or bookmark, or once the watch has held a while.
        if (!this.#policy.troubled) this.#tracker.live();
        else
          liveTimer = this.#clock.setTimeout(() => this.#gen === gen && this.#tracker.live(), LIVE_AFTER_MS);
      },
      onProgress: progress,
      onChange: (c) => {
        if (c.type === 'delete' && this.#refused.delete(c.name.slice(0, REFUSED_KEY))) this.#reportRefused();
        this.onEvent(c);
      },
      onResourceVersion: (v) => {
        this.#rv = v;
      },
    });
    this.#watch = w;
    try {
      const { outcome, error } = await w.done;
      if (this.#gen !== gen || outcome === 'stopped') return null;
      if (outcome === 'expired')
        return new KubeError(
          'expired',
          `The API server expired the ${this.resource.singular} watch on ${host} (410).`,
        );
      if (outcome === 'stalled') return await this.#probe(client, host);
      if (error) return error;
      const lasted = openedAt === null ? 0 : this.#clock.now() - openedAt;
      if (lasted < MIN_WATCH_MS || (!progressed && lasted < MIN_QUIET_WATCH_MS))
        return new KubeError('unreachable', `${host} closed the watch at once.`);
      return null;
    } finally {
      this.#clock.clearTimeout(liveTimer);
      if (this.#watch === w) this.#watch = null;
    }
  }

  /**
   * After a silent watch: one object, on a fresh connection, with the same credentials. null (the server
   * answers: watch again, quietly) or why it does not.
   */
  async #probe(client: ContextClient, host: string): Promise<KubeError | null> {
    client.dropIdleConnections();
    const q = new URLSearchParams({ limit: '1' });
    if (this.resource.fieldSelector) q.set('fieldSelector', this.resource.fieldSelector);
    try {
      await client.getJson(
        `${this.resource.path}?${q}`,
        `checking ${host} after a silent watch`,
        this.#opts.probeTimeoutMs ?? PROBE_TIMEOUT_MS,
      );
      return null;
    } catch (err) {
      // The probe's own sentence (e.g. "host did not answer in time"), in the user's language.
      return this.#asKubeError(err);
    }
  }

  /** Applies the error policy's decision: relist or retry, after a wait, or wait for the user. */
  async #failed(gen: number, err: KubeError): Promise<void> {
    const d = this.#policy.decide(err);
    if (d.next === 'wait-for-user') {
      this.#tracker.failed(d.report, null);
      // A bad configuration will not fix itself; the next attempt makes a new client.
      this.#client?.close();
      this.#client = null;
      await this.#wait(gen, null);
      return;
    }
    if (d.next === 'relist') this.#rv = null;
    if (d.report) this.#tracker.failed(d.report, d.delayMs);
    if (d.delayMs > 0) await this.#wait(gen, d.delayMs);
  }

  #wait(gen: number, ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      if (this.#gen !== gen) return resolve();
      const timer = ms === null ? null : this.#clock.setTimeout(() => this.#wake(), ms);
      this.#sleep = { timer, wake: resolve };
    });
  }

  #reportRefused(): void {
    const count = this.#refused.size + this.#refusedNameless;
    if (count === this.#refusedShown) return;
    this.#refusedShown = count;
    this.onEvent({ type: 'refused', count });
  }
}

/**
 * A watcher of one resource in one kubeconfig context. The client is built on each (re)connect attempt, so
 * a context that cannot be used as written reports config-error instead of throwing here.
 */
export function watchContext<T>(
  resource: WatchedResource<T>,
  context: ResolvedContext,
  onEvent: (e: WatcherEvent<T>) => void,
  opts: ListWatcherOptions & { client?: ContextClientOptions } = {},
): ListWatcher<T> {
  const { client, ...watcherOpts } = opts;
  const clock = opts.clock;
  return new ListWatcher(
    resource,
    () => new ContextClient(context, { clock, ...client }),
    onEvent,
    watcherOpts,
  );
}

/** The name a refused object is remembered by (cut), or null when it has no string name. */
function refusedKey(raw: unknown): string | null {
  const meta = typeof raw === 'object' && raw !== null ? (raw as { metadata?: unknown }).metadata : null;
  const name = typeof meta === 'object' && meta !== null ? (meta as { name?: unknown }).name : null;
  return typeof name === 'string' ? name.slice(0, REFUSED_KEY) : null;
}
