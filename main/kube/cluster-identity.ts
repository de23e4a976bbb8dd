/**
 * Which contexts reach the same cluster: the same API server (scheme, host, port and path, as the
 * client would dial it) trusted with the same CA (its certificate bytes, whether the kubeconfig carries
 * them inline or names a file), the same TLS server name and proxy. Contexts that differ only in user,
 * namespace or name are one cluster, watched once (engine.ts). The key is an opaque keyed digest, so it
 * says nothing about the CA or server to anyone who sees it.
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
 * watched, the others are named with it. A context whose cluster is unknown stands alone.
 */
export function groupByCluster(contexts: readonly ResolvedContext[]): ResolvedContext[][] {
  const groups = new Map<string, ResolvedContext[]>();
  const out: ResolvedContext[][] = [];
  for (const ctx of contexts) {
    const key = clusterIdentity(ctx);
    const group = key === null ? undefined : groups.get(key);
    if (group) group.push(ctx);
    else {
      const fresh = [ctx];
      out.push(fresh);
      if (key !== null) groups.set(key, fresh);
    }
  }
  return out;
}
