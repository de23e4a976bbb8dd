/**
 * One read of a context's free GPUs for `gpu-fleet free` and `fit`: list the nodes and the live GPU pods
 * (the same resources and trims the engine watches, in pages), then the pure figures. Pods that cannot be
 * listed (forbidden, or any other failure after the nodes answered) make the figures unknown with one
 * sentence, never 0; the nodes' allocatable is still returned for `fit`'s node reasons.
 */
import type { ClusterFree, NodeFree } from '../../../common/free-gpus.ts';
import { NODES } from '../../fleet/node-watch.ts';
import { GPU_PODS, POD_PAGE_SIZE } from '../../fleet/pod-watch.ts';
import { clusterFree, unknownFree } from '../../inventory/free-gpus.ts';
import type { NodeFacts } from '../../inventory/node-facts.ts';
import { systemClock } from '../../kube/clock.ts';
import { ContextClient } from '../../kube/context-client.ts';
import { toKubeError } from '../../kube/error-classify.ts';
import type { ResolvedContext } from '../../kube/kubeconfig-types.ts';
import { type ListResult, listObjects } from '../../kube/list-pages.ts';

export type FreeRead =
  | {
      context: string;
      free: ClusterFree;
      /**
       * The nodes with free counts; when the pods are unknown computed without them (requested 0), so only
       * their allocatable and state may be read (fit.ts and the -o wide rows do so).
       */
      nodes: NodeFree[];
      error: null;
    }
  | { context: string; free: null; nodes: []; error: string };

const LIST_TIMEOUT_MS = 60_000;

export async function readFree(ctx: ResolvedContext): Promise<FreeRead> {
  const server = ctx.cluster?.cluster.server ?? ctx.clusterName;
  const client = new ContextClient(ctx);
  // One-shot lists: each asks for its next page as soon as a page's head names it (list-pages.ts).
  const opts = {
    requestTimeoutMs: LIST_TIMEOUT_MS,
    clock: systemClock,
    isCancelled: () => false,
    eagerNext: true,
  };
  try {
    // Both lists at once: the pods' pages are what a large cluster waits for, not the nodes'.
    const podList = listObjects(client, GPU_PODS, { ...opts, pageSize: POD_PAGE_SIZE });
    // Read below unless the nodes fail first; its failure must not be left unhandled then.
    podList.catch(() => undefined);
    let nodes: ListResult<NodeFacts> | null;
    try {
      nodes = await listObjects(client, NODES, { ...opts, pageSize: 100 });
    } catch (error) {
      return { context: ctx.name, free: null, nodes: [], error: toKubeError(error, server).message };
    }
    if (!nodes) return { context: ctx.name, free: null, nodes: [], error: 'the node list was cancelled' };
    try {
      const pods = await podList;
      if (!pods) throw new Error('the pod list was cancelled');
      const free = clusterFree(nodes.items, pods.items);
      return { context: ctx.name, free, nodes: free.nodes, error: null };
    } catch (error) {
      const e = toKubeError(error, server);
      // The products still say capacity and allocatable from the nodes; in use and free stay unknown.
      const free =
        e.kind === 'forbidden'
          ? unknownFree('forbidden', null, nodes.items)
          : unknownFree('error', e.message, nodes.items);
      return { context: ctx.name, free, nodes: clusterFree(nodes.items, []).nodes, error: null };
    }
  } finally {
    client.close();
  }
}
