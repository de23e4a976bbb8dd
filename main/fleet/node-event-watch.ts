/**
 * The engine's binding of the generic list+watch machinery to the Kubernetes Events about Nodes: every
 * namespace, narrowed by the server with the field selector kube-apiserver supports on core/v1 events
 * (`involvedObject.kind=Node`, shared/real-api/12 §5; an unsupported field is a 400 there and in the sim).
 * Each event is read by the node detail's own reader (diagnosis/events-pods.ts: the text gate, bounded
 * counts) and kept only with a uid and a time (the timeline deduplicates by uid and keeps the highest
 * count). Keyed `namespace/name`; at most MAX_NODE_EVENTS, as the node list is capped.
 */
import { isObj } from '../../common/json-guards.ts';
import { isNodeName } from '../../common/k8s-names.ts';
import type { NodeEventView } from '../../common/node-detail.ts';
import { readEvents } from '../diagnosis/events-pods.ts';
import { jsonEqual } from '../inventory/json-equal.ts';
import type { WatchedResource } from '../kube/watched-resource.ts';

/** Events kept per cluster: the server keeps an hour of them; a flapping 5,000-node cluster makes a few per node. */
export const MAX_NODE_EVENTS = 50_000;
export const NODE_EVENTS_SELECTOR = 'involvedObject.kind=Node';
/** Events are small; 500 a page as client-go's reflector. */
export const EVENT_PAGE_SIZE = 500;

export interface NodeEventFact {
  /** `namespace/name` of the Event object. */
  key: string;
  /** The Node it is about. */
  node: string;
  event: NodeEventView & { uid: string };
}

function keyOf(meta: Record<string, unknown>): string | null {
  const ns = meta.namespace;
  const name = meta.name;
  if (typeof ns !== 'string' || typeof name !== 'string' || ns.length > 253 || name.length > 253) return null;
  return `${ns}/${name}`;
}

export function trimNodeEvent(raw: unknown): NodeEventFact | null {
  if (!isObj(raw) || !isObj(raw.metadata) || !isObj(raw.involvedObject)) return null;
  const key = keyOf(raw.metadata);
  const ref = raw.involvedObject;
  if (key === null || ref.kind !== 'Node' || typeof ref.name !== 'string' || !isNodeName(ref.name))
    return null;
  const [event] = readEvents({ items: [raw] });
  if (event?.uid === undefined || event.last === null) return null;
  return { key, node: ref.name, event: { ...event, uid: event.uid } };
}

export const NODE_EVENTS: WatchedResource<NodeEventFact> = {
  path: '/api/v1/events',
  fieldSelector: NODE_EVENTS_SELECTOR,
  singular: 'event',
  plural: 'events',
  trim: trimNodeEvent,
  nameOf: (e) => e.key,
  keyOfMeta: keyOf,
  same: jsonEqual,
  maxItems: MAX_NODE_EVENTS,
};
