/**
 * Collects a watcher's events into an ObjectCache (of NodeFacts unless told another resource) and lets a
 * test wait for a condition (event-driven, with a generous safety limit that fails the test rather than
 * asserting any speed).
 */
import type { ConnectionPhase, ConnectionState } from '../../common/connection.ts';
import { NODES } from '../../main/fleet/node-watch.ts';
import type { NodeFacts } from '../../main/inventory/node-facts.ts';
import type { WatcherEvent } from '../../main/kube/list-watcher.ts';
import { ObjectCache } from '../../main/kube/object-cache.ts';
import type { WatchedResource } from '../../main/kube/watched-resource.ts';

export class WatcherRecorder<T = NodeFacts> {
  readonly events: WatcherEvent<T>[] = [];
  readonly cache: ObjectCache<T>;
  #waiters: { check: () => boolean; resolve: () => void }[] = [];

  /** Without a resource, T is NodeFacts (the default type parameter) and the cache is keyed as NODES is. */
  constructor(resource?: Pick<WatchedResource<T>, 'nameOf' | 'same'>) {
    this.cache = new ObjectCache(
      resource ?? (NODES as unknown as Pick<WatchedResource<T>, 'nameOf' | 'same'>),
    );
  }

  readonly on = (e: WatcherEvent<T>): void => {
    this.events.push(e);
    if (e.type !== 'connection' && e.type !== 'refused') this.cache.apply(e);
    this.#waiters = this.#waiters.filter((w) => {
      if (!w.check()) return true;
      w.resolve();
      return false;
    });
  };

  get states(): ConnectionState[] {
    return this.events.flatMap((e) => (e.type === 'connection' ? [e.state] : []));
  }

  get phases(): ConnectionPhase[] {
    return this.states.map((s) => s.phase);
  }

  get phase(): ConnectionPhase | undefined {
    return this.states.at(-1)?.phase;
  }

  count(type: WatcherEvent<T>['type']): number {
    return this.events.filter((e) => e.type === type).length;
  }

  /**
   * Resolves when check() holds (checked after every event, and every 20 ms for state that changes
   * without an event, such as the resourceVersion a bookmark moves); rejects after limitMs.
   */
  waitFor(check: () => boolean, what: string, limitMs = 10_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = { check, resolve: () => {} };
      const poll = setInterval(() => {
        if (check()) waiter.resolve();
      }, 20);
      const timer = setTimeout(() => {
        clearInterval(poll);
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        const phases = this.phases.join(' → ');
        reject(
          new Error(
            `timed out waiting for ${what} (phases: ${phases}; last: ${this.states.at(-1)?.message ?? ''})`,
          ),
        );
      }, limitMs);
      waiter.resolve = () => {
        clearTimeout(timer);
        clearInterval(poll);
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        resolve();
      };
      this.#waiters.push(waiter);
    });
  }

  waitForPhase(phase: ConnectionPhase, limitMs?: number): Promise<void> {
    return this.waitFor(() => this.phase === phase, `phase ${phase}`, limitMs);
  }
}
