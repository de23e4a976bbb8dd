/**
 * Kubernetes Events about GPU nodes while a context is monitored, for the timeline (which keeps them past
 * the server's one-hour expiry): a list+watch of the same generic machinery and error policy as the node
 * watch (node-event-watch.ts). What is new or changed (a higher count, a later time) is passed on, per
 * node, only for nodes the inventory has (GPU nodes); a relist passes on only what differs from before.
 * Forbidden (no RBAC for events) is said once, in one sentence, and the node watch goes on.
 */
import type { ConnectionState } from '../../common/connection.ts';
import type { NodeEventView } from '../../common/node-detail.ts';
import type { Clock } from '../kube/clock.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { ListWatcher, type ListWatcherOptions, type WatcherEvent } from '../kube/list-watcher.ts';
import { ObjectCache } from '../kube/object-cache.ts';
import { EVENT_PAGE_SIZE, NODE_EVENTS, type NodeEventFact } from './node-event-watch.ts';

export interface NodeEventFeedOptions {
  makeClient: () => ContextClient;
  clock: Clock;
  watcher?: Omit<ListWatcherOptions, 'clock'> | undefined;
  /** Is this node a GPU node (in the inventory now)? */
  isGpuNode: (node: string) => boolean;
  onEvents: (node: string, events: NodeEventView[]) => void;
  /** The events cannot be read (forbidden): one sentence, once per time it happens. */
  onForbidden: (sentence: string) => void;
}

export const EVENTS_FORBIDDEN =
  'Kubernetes events about GPU nodes cannot be read with this context (forbidden), so the timeline records none; monitoring goes on.';

export class NodeEventFeed {
  readonly #o: NodeEventFeedOptions;
  readonly #cache = new ObjectCache(NODE_EVENTS);
  readonly #watcher: ListWatcher<NodeEventFact>;
  #forbidden = false;

  constructor(opts: NodeEventFeedOptions) {
    this.#o = opts;
    this.#watcher = new ListWatcher(NODE_EVENTS, opts.makeClient, (e) => this.#onEvent(e), {
      pageSize: EVENT_PAGE_SIZE,
      ...opts.watcher,
      clock: opts.clock,
    });
  }

  get connection(): ConnectionState {
    return this.#watcher.connection;
  }

  start(): void {
    this.#watcher.start();
  }

  stop(): void {
    this.#watcher.stop();
  }

  retryNow(): void {
    this.#watcher.retryNow();
  }

  #onEvent(e: WatcherEvent<NodeEventFact>): void {
    if (e.type === 'connection') {
      const forbidden = e.state.phase === 'forbidden';
      if (forbidden && !this.#forbidden) this.#o.onForbidden(EVENTS_FORBIDDEN);
      this.#forbidden = forbidden;
      return;
    }
    if (e.type === 'refused') return;
    if (e.type === 'delete') {
      // Expired on the server: the timeline keeps it.
      this.#cache.apply(e);
      return;
    }
    const fresh =
      e.type === 'upsert'
        ? [e.object]
        : e.objects.filter((o) => {
            const old = this.#cache.view.get(o.key);
            return old === undefined || !NODE_EVENTS.same(old, o);
          });
    const changed = this.#cache.apply(e);
    if (e.type === 'upsert' && !changed) return;
    const byNode = new Map<string, NodeEventView[]>();
    for (const f of fresh) {
      if (!this.#o.isGpuNode(f.node)) continue;
      const list = byNode.get(f.node) ?? [];
      list.push(f.event);
      byNode.set(f.node, list);
    }
    for (const [node, events] of byNode) this.#o.onEvents(node, events);
  }
}
