// The kubeconfig of a running simulator: one cluster, a context and a token user per sim user.
import { stringify } from 'yaml';

export const CLUSTER = 'gpu-fleet-sim';

export function kubeconfigYaml(url: string, caPem: string, tokens: Record<string, string>): string {
  const users = ['admin', 'readonly', 'revocable', 'nodesonly'];
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
