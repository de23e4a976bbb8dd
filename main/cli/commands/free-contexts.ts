/**
 * `gpu-fleet free` and `fit` over several contexts: contexts that reach one cluster (the same server and
 * CA, kube/cluster-identity.ts, as the engine groups them) are read as one and counted once, the others
 * named as its aliases. Within a group the first context that can read the pods answers (a nodes-only
 * user listed first does not hide a user who may list pods); the next is read only when the one before
 * could not tell.
 */
import { groupByCluster } from '../../kube/cluster-identity.ts';
import type { ResolvedContext } from '../../kube/kubeconfig-types.ts';
import { type FreeRead, readFree } from './free-read.ts';

/** A read, with the other contexts of the same cluster (empty when it is reached through one). */
export type ClusterRead = FreeRead & { also: string[] };

const knows = (r: FreeRead) => r.error === null && r.free.state === 'known';

export async function readClusters(
  contexts: readonly ResolvedContext[],
  read: (ctx: ResolvedContext) => Promise<FreeRead> = readFree,
): Promise<ClusterRead[]> {
  return Promise.all(
    groupByCluster(contexts).map(async (group) => {
      let best: FreeRead | null = null;
      for (const ctx of group) {
        const r = await read(ctx);
        // Known figures beat unknown ones, and unknown ones (the nodes read) beat an error.
        if (best === null || knows(r) || (best.error !== null && r.error === null)) best = r;
        if (knows(r)) break;
      }
      const chosen = best as FreeRead;
      return { ...chosen, also: group.map((c) => c.name).filter((n) => n !== chosen.context) };
    }),
  );
}
