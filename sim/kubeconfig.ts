// The kubeconfig of a running simulator: one cluster, a context and a token user per sim user.
import { stringify } from 'yaml';

export const CLUSTER = 'gpu-fleet-sim';
const USERS = ['admin', 'readonly', 'revocable', 'nodesonly'];
/** The kubeconfig's contexts, one per sim user; the first is the current one. */
export const SIM_CONTEXTS: readonly string[] = USERS.map((u) => `sim-${u}`);

export function kubeconfigYaml(url: string, caPem: string, tokens: Record<string, string>): string {
  const users = USERS;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: CLUSTER,
        cluster: { server: url, 'certificate-authority-data': Buffer.from(caPem).toString('base64') },
      },
    ],
    users: users.map((u) => ({ name: `sim-${u}`, user: { token: tokens[u] } })),
    contexts: users.map((u) => ({ name: `sim-${u}`, context: { cluster: CLUSTER, user: `sim-${u}` } })),
    'current-context': 'sim-admin',
    preferences: {},
  });
}
