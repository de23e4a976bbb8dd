/**
 * One node's detail, read on demand: the node GET, its events and its GPU pods in parallel, put together
 * as the `NodeDetail` contract the window and `gpu-fleet describe` share. The node is required (its
 * absence is `null`, any other failure throws a KubeError); events and pods are parts: a failure there is
 * one short sentence in `partial` ("events: forbidden") and the rest still shows.
 */

import { gpuWhy } from '../../common/gpu-why.ts';
import type { LastSeenLabels } from '../../common/inventory.ts';
import type { NodeDetail } from '../../common/node-detail.ts';
import { deriveEntry, isGpuNode, trimNode } from '../inventory/index.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { KubeError } from '../kube/errors.ts';
import {
  EVENTS_LIMIT,
  getNode,
  listNodeEvents,
  listNodePods,
  PODS_LIMIT,
} from '../kube/node-detail-requests.ts';
import { readEvents, readGpuPods } from './events-pods.ts';
import {
  readConditions,
  readGpuFacts,
  readQuarantine,
  readSystem,
  readTaints,
  readUnschedulable,
} from './node-parts.ts';

export interface DetailOptions {
  /** Epoch ms the detail is read at (ages are relative to it). */
  now: number;
  /** What the node's GPU labels said when last seen (the engine remembers; the CLI has none). */
  lastSeen?: LastSeenLabels | null;
  timeoutMs?: number;
}

/** Why a part could not be read, in a few words: "forbidden", or the error's sentence. */
export function partSentence(part: 'events' | 'pods', err: unknown): string {
  if (err instanceof KubeError && err.kind === 'forbidden') return `${part}: forbidden`;
  if (err instanceof KubeError) return `${part}: ${err.message}`;
  return `${part}: could not be read`;
}

/** True when a list answer says more items follow (a `continue` token): the detail shows one page only. */
function hasMore(list: unknown): boolean {
  if (typeof list !== 'object' || list === null) return false;
  const meta = (list as { metadata?: unknown }).metadata;
  if (typeof meta !== 'object' || meta === null) return false;
  const token = (meta as { continue?: unknown }).continue;
  return typeof token === 'string' && token !== '';
}

/** The raw Node as the detail (pure: no I/O), with events and pods already read or failed. */
export function assembleDetail(
  context: string,
  name: string,
  node: unknown,
  events: { ok: true; list: unknown } | { ok: false; error: unknown },
  pods: { ok: true; list: unknown } | { ok: false; error: unknown },
  opts: DetailOptions,
): NodeDetail {
  const facts = trimNode(node);
  const partial: string[] = [];
  if (!events.ok) partial.push(partSentence('events', events.error));
  if (!pods.ok) partial.push(partSentence('pods', pods.error));
  if (events.ok && hasMore(events.list)) partial.push(`events: only the first ${EVENTS_LIMIT} were read`);
  if (pods.ok && hasMore(pods.list)) partial.push(`pods: only the first ${PODS_LIMIT} were read`);
  const gpu = facts !== null && isGpuNode(facts) ? deriveEntry(facts, opts.lastSeen ?? null) : null;
  const conditions = readConditions(node);
  const taints = readTaints(node);
  const unschedulable = readUnschedulable(node);
  const nodeEvents = events.ok ? readEvents(events.list) : [];
  return {
    context,
    name,
    fetchedAt: new Date(opts.now).toISOString(),
    gpu,
    gpuFacts: readGpuFacts(node, opts.now),
    conditions,
    taints,
    unschedulable,
    system: readSystem(node),
    events: nodeEvents,
    pods: pods.ok ? readGpuPods(pods.list) : [],
    telemetry: null,
    partial,
    why: gpuWhy({
      conditions,
      taints,
      unschedulable,
      quarantine: readQuarantine(node),
      gpu,
      events: nodeEvents,
      now: opts.now,
    }),
  };
}

const settle = async (p: Promise<unknown>) => {
  try {
    return { ok: true as const, list: await p };
  } catch (error) {
    return { ok: false as const, error };
  }
};

/** Reads the detail of `name`; null when the cluster has no such node. */
export async function fetchNodeDetail(
  client: ContextClient,
  context: string,
  name: string,
  opts: DetailOptions,
): Promise<NodeDetail | null> {
  const timeout = opts.timeoutMs;
  const [node, events, pods] = await Promise.all([
    getNode(client, name, timeout),
    settle(listNodeEvents(client, name, timeout)),
    settle(listNodePods(client, name, timeout)),
  ]);
  if (node === null) return null;
  return assembleDetail(context, name, node, events, pods, opts);
}
