/**
 * The engine's binding of the generic list+watch machinery (main/kube/list-watcher.ts, object-cache.ts) to
 * Nodes: the collection path, the words sentences use, trimNode (what the inventory keeps of a Node, and
 * which names it refuses) and sameNodeFacts (what counts as a change). kube/ knows nothing of NodeFacts;
 * this is where they meet.
 */
import { type NodeFacts, sameNodeFacts, trimNode } from '../inventory/node-facts.ts';
import type { ContextClientOptions } from '../kube/context-client.ts';
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';
import {
  type ListWatcher,
  type ListWatcherOptions,
  type WatcherEvent,
  watchContext,
} from '../kube/list-watcher.ts';
import type { WatchedResource } from '../kube/watched-resource.ts';

export const NODES: WatchedResource<NodeFacts> = {
  path: '/api/v1/nodes',
  singular: 'node',
  plural: 'nodes',
  trim: trimNode,
  nameOf: (node) => node.name,
  same: sameNodeFacts,
};

export type NodeWatcher = ListWatcher<NodeFacts>;
export type NodeWatcherEvent = WatcherEvent<NodeFacts>;

/** A watcher of the Nodes of one kubeconfig context (see watchContext). */
export function watchContextNodes(
  context: ResolvedContext,
  onEvent: (e: NodeWatcherEvent) => void,
  opts: ListWatcherOptions & { client?: ContextClientOptions } = {},
): NodeWatcher {
  return watchContext(NODES, context, onEvent, opts);
}
