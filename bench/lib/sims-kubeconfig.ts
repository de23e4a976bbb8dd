/**
 * One kubeconfig naming every simulator of a sim host as a context of its own (c0, c1, …): each sim's
 * kubeconfig uses the same cluster, user and context names, so merged through KUBECONFIG the first file
 * would win them all (as kubectl does) and the app would see one cluster.
 */
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import type { HostedSim } from './sim-host.ts';

/** The context name of sim `i` in the merged kubeconfig. */
export const simContext = (i: number): string => `c${i}`;

export function simsKubeconfigYaml(sims: readonly Pick<HostedSim, 'url' | 'caPem' | 'adminToken'>[]): string {
  const names = sims.map((_, i) => simContext(i));
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: sims.map((s, i) => ({
      name: `sim-${i}`,
      cluster: { server: s.url, 'certificate-authority-data': Buffer.from(s.caPem).toString('base64') },
    })),
    users: sims.map((s, i) => ({ name: `sim-${i}-admin`, user: { token: s.adminToken } })),
    contexts: names.map((name, i) => ({ name, context: { cluster: `sim-${i}`, user: `sim-${i}-admin` } })),
    'current-context': names[0] ?? '',
    preferences: {},
  });
}

/** Writes the merged kubeconfig (owner-only, it holds tokens); resolves with its context names. */
export async function writeSimsKubeconfig(
  file: string,
  sims: readonly Pick<HostedSim, 'url' | 'caPem' | 'adminToken'>[],
): Promise<string[]> {
  await writeFile(file, simsKubeconfigYaml(sims), { mode: 0o600 });
  return sims.map((_, i) => simContext(i));
}
