/**
 * The free GPUs of one context: a second list+watch of the same generic machinery and error policy as
 * the node watch, over the live GPU pods (pod-watch.ts), and the figures built from its cache and the
 * node cache (inventory/free-gpus.ts), memoized on both caches' versions. Until the first full pod list
 * the figures are unknown (never 0); when the pods are forbidden they are unknown with that sentence;
 * while the pod watch reconnects after a full list the last figures are kept and marked stale. A relist
 * swaps the whole pod set in at once, so partial data is never shown as complete.
 */
import type { ConnectionState } from '../../common/connection.ts';
import type { ClusterFree } from '../../common/free-gpus.ts';
import { snapshotFree, unknownFree } from '../inventory/free-gpus.ts';
import { FreeTally } from '../inventory/free-tally.ts';
import { type GpuPod, podKey } from '../inventory/gpu-pod.ts';
import type { NodeFacts } from '../inventory/node-facts.ts';
import type { Clock } from '../kube/clock.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { ListWatcher, type ListWatcherOptions, type WatcherEvent } from '../kube/list-watcher.ts';
import { ObjectCache, type ObjectCacheView } from '../kube/object-cache.ts';
import { sharedTurn } from '../kube/turns.ts';
import { GPU_PODS, POD_PAGE_SIZE } from './pod-watch.ts';

export interface FreeGpuFeedOptions {
  makeClient: () => ContextClient;
  clock: Clock;
  watcher?: Omit<ListWatcherOptions, 'clock'> | undefined;
}

const FRESH: ReadonlySet<ConnectionState['phase']> = new Set(['live', 'connecting']);

export class FreeGpuFeed {
  readonly #cache = new ObjectCache(GPU_PODS);
  /** Per-node request sums and Pending pods, kept with the cache pod by pod (never a pass over all pods). */
  readonly #tally = new FreeTally();
  readonly #watcher: ListWatcher<GpuPod>;
  #synced = false;
  #running = false;
  #memo: {
    nodes: ObjectCacheView<NodeFacts>;
    nodesVersion: number;
    podsVersion: number;
    phase: string;
    free: ClusterFree;
  } | null = null;

  constructor(
    opts: FreeGpuFeedOptions,
    private readonly onChange: () => void,
  ) {
    this.#watcher = new ListWatcher(GPU_PODS, opts.makeClient, (e) => this.#onEvent(e), {
      pageSize: POD_PAGE_SIZE,
      // 100,000 pods are 200 pages: the server prepares the next while this one is parsed.
      eagerNext: true,
      ...opts.watcher,
      clock: opts.clock,
    });
  }

  get connection(): ConnectionState {
    return this.#watcher.connection;
  }

  /** The GPU pods kept now (for tests and the bench). */
  get pods(): ObjectCacheView<GpuPod> {
    return this.#cache.view;
  }

  start(): void {
    this.#running = true;
    this.#watcher.start();
  }

  stop(): void {
    this.#running = false;
    this.#watcher.stop();
  }

  retryNow(): void {
    this.#watcher.retryNow();
  }

  /** The figures for these nodes and the pods kept now; the same object while nothing changed. */
  free(nodes: ObjectCacheView<NodeFacts>): ClusterFree {
    const phase = this.#watcher.connection.phase;
    const m = this.#memo;
    if (
      m !== null &&
      m.nodes === nodes &&
      m.nodesVersion === nodes.version &&
      m.podsVersion === this.#cache.view.version &&
      m.phase === phase
    )
      return m.free;
    const free = this.#compute(nodes, phase);
    this.#memo = { nodes, nodesVersion: nodes.version, podsVersion: this.#cache.view.version, phase, free };
    return free;
  }

  #compute(nodes: ObjectCacheView<NodeFacts>, phase: ConnectionState['phase']): ClusterFree {
    if (phase === 'forbidden') return unknownFree('forbidden', null, nodes.values());
    if (!this.#synced) {
      const failed = phase === 'unreachable' || phase === 'unauthorized' || phase === 'config-error';
      return unknownFree(failed ? 'unreachable' : 'listing');
    }
    const free = snapshotFree(nodes.values(), this.#tally);
    return FRESH.has(phase) ? free : { ...free, stale: true };
  }

  #onEvent(e: WatcherEvent<GpuPod>): void {
    if (e.type === 'connection') {
      this.onChange();
      return;
    }
    if (e.type === 'refused') return;
    const view = this.#cache.view;
    const key = e.type === 'upsert' ? podKey(e.object) : e.type === 'delete' ? e.name : null;
    const before = key === null ? undefined : view.get(key);
    const changed = this.#cache.apply(e);
    if (key !== null) this.#tally.change(key, before, view.get(key));
    else this.#tally.reset(this.#cache.entries());
    if (e.type === 'replace') {
      const first = !this.#synced;
      this.#synced = true;
      // This task has just parsed the last page and kept and tallied every GPU pod (20,000 of them: tens
      // of ms): the figures the engine builds on hearing of it get a turn of their own (kube/turns.ts).
      if (first || changed) void sharedTurn().then(() => this.#running && this.onChange());
      return;
    }
    if (changed) this.onChange();
  }
}
