/**
 * Which contexts reach the same cluster: the same API server (scheme, host, port and path, as the
 * client would dial it) trusted with the same CA (its certificate bytes, whether the kubeconfig carries
 * them inline or names a file), the same TLS server name and proxy. Contexts that differ only in user,
 * namespace or name are one cluster, watched once (engine.ts). The key is an opaque keyed digest, so it
 * says nothing about the CA or server to anyone who sees it.
 *
 * A second key, where the user may read it: the uid of the cluster's `kube-system` namespace
 * (fleet/cluster-uids.ts), the same through every address of one cluster (127.0.0.1 and ::1, a load
 * balancer and a node). Two contexts are one cluster when either key matches.
 */
import { digest, fileDigest } from './fingerprint.ts';
import type { ResolvedContext } from './kubeconfig-types.ts';

/** The cluster a context reaches, as a key equal for contexts that reach the same one; null when unknown. */
export function clusterIdentity(ctx: ResolvedContext): string | null {
  const c = ctx.cluster?.cluster;
  if (!c?.server) return null;
  let server: string;
  try {
    const u = new URL(c.server);
    server = `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
  const ca = c.caData ? digest(Buffer.from(c.caData, 'base64')) : fileDigest(c.caFile);
  return digest(
    JSON.stringify([server, ca, c.skipTLSVerify === true, c.tlsServerName ?? null, c.proxyUrl ?? null]),
  );
}

/**
 * Contexts grouped by the cluster they reach, in the order given: each group's first context is the one
 * watched, the others are named with it. Contexts are one group when their server and CA match or their
 * `kube-system` uids do (`uidOf`, null where unknown), also through a third (a ~ b by address, b ~ c by
 * uid). A context with neither key stands alone.
 */
export function groupByCluster(
  contexts: readonly ResolvedContext[],
  uidOf: (ctx: ResolvedContext) => string | null = () => null,
): ResolvedContext[][] {
  // Union-find over the indices; a root is always the smallest index of its group.
  const parent = contexts.map((_, i) => i);
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r] as number;
    parent[i] = r;
    return r;
  };
  const firstWith = new Map<string, number>();
  contexts.forEach((ctx, i) => {
    const address = clusterIdentity(ctx);
    const uid = uidOf(ctx);
    for (const key of [address === null ? null : `a:${address}`, uid === null ? null : `u:${uid}`]) {
      if (key === null) continue;
      const j = firstWith.get(key);
      if (j === undefined) {
        firstWith.set(key, i);
        continue;
      }
      const [a, b] = [find(i), find(j)];
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  });
  const groups = new Map<number, ResolvedContext[]>();
  contexts.forEach((ctx, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push(ctx);
    else groups.set(root, [ctx]);
  });
  return [...groups.values()];
}
