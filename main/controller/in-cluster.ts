/**
 * The in-cluster configuration, as client-go's rest.InClusterConfig builds it: the API server from
 * KUBERNETES_SERVICE_HOST/PORT, the pod's service-account token, CA and namespace from the mounted
 * folder. The result is an ordinary ResolvedContext with a token-file user, so the same ContextClient
 * serves it; that client re-reads the token file every minute and right after a 401, which keeps a
 * rotated projected token working.
 */

import fs from 'node:fs';
import path from 'node:path';
import { isNamespaceName } from '../../common/k8s-names.ts';
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';

export const SERVICEACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
export const IN_CLUSTER_CONTEXT = 'in-cluster';

export interface InCluster {
  context: ResolvedContext;
  /** The pod's namespace (the `namespace` file), or null when the folder has none. */
  namespace: string | null;
}

export function inClusterEnv(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.KUBERNETES_SERVICE_HOST) && Boolean(env.KUBERNETES_SERVICE_PORT);
}

function readable(file: string): string | null {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return null;
  } catch (e) {
    return (e as { code?: string }).code ?? 'EIO';
  }
}

/** The in-cluster context, or one sentence saying what is missing. */
export function inClusterContext(
  env: NodeJS.ProcessEnv,
  dir: string = SERVICEACCOUNT_DIR,
): InCluster | string {
  const host = (env.KUBERNETES_SERVICE_HOST ?? '').trim();
  const port = (env.KUBERNETES_SERVICE_PORT ?? '').trim();
  if (!host || !port)
    return 'not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set; pass --kubeconfig';
  if (!/^[A-Za-z0-9.:-]{1,253}$/.test(host))
    return `KUBERNETES_SERVICE_HOST "${host}" is not a host name or address`;
  const portNumber = Number(port);
  if (!/^\d{1,5}$/.test(port) || portNumber < 1 || portNumber > 65535)
    return `KUBERNETES_SERVICE_PORT "${port}" is not a port number`;
  const token = path.join(dir, 'token');
  const ca = path.join(dir, 'ca.crt');
  for (const file of [token, ca]) {
    const problem = readable(file);
    if (problem !== null) return `the service-account file ${file} cannot be read (${problem})`;
  }
  let namespace: string | null = null;
  try {
    const text = fs.readFileSync(path.join(dir, 'namespace'), 'utf8').trim();
    if (isNamespaceName(text)) namespace = text;
  } catch {
    namespace = null;
  }
  // IPv6 addresses go in brackets (Go's net.JoinHostPort).
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${portNumber}`;
  const context: ResolvedContext = {
    name: IN_CLUSTER_CONTEXT,
    clusterName: IN_CLUSTER_CONTEXT,
    userName: IN_CLUSTER_CONTEXT,
    namespace,
    cluster: { cluster: { name: IN_CLUSTER_CONTEXT, server, caFile: ca, skipTLSVerify: false }, file: dir },
    user: {
      user: { name: IN_CLUSTER_CONTEXT, authProvider: { name: 'tokenFile', config: { tokenFile: token } } },
      exec: null,
      file: dir,
    },
    file: dir,
  };
  return { context, namespace };
}
