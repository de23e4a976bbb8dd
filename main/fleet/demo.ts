/**
 * The built-in demo: two simulated clusters in-process — `home-lab` (the seed story: four GPU nodes down,
 * the kubelets stopped posting status) and `small-lab` (MIG, time-slicing, and an L4 node that flaps about
 * every 40 s, so a drop, its alert, the recovery and the history show within the first minute) — with one
 * kubeconfig naming both and throwaway settings monitoring both, in a temporary folder, so trying the app
 * never touches the user's real settings.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { type KubeconfigLocateOptions, loadKubeconfig } from '../kube/kubeconfig.ts';
import { openSettings } from '../settings/store.ts';

export interface Demo {
  /** The home lab (kept as `sim` for the tests and benchmarks that drive it). */
  sim: RunningSim;
  /** Every demo cluster by its context name. */
  sims: ReadonlyMap<string, RunningSim>;
  kubeconfigPath: string;
  settingsDir: string;
  close(): Promise<void>;
}

export const DEMO_CLUSTERS = [
  { context: 'home-lab', scenario: 'homelab' },
  { context: 'small-lab', scenario: 'smalllab' },
] as const;

/** One kubeconfig for several simulators: a cluster, an admin user and a context per simulator. */
export function demoKubeconfig(sims: readonly { context: string; sim: RunningSim }[]): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: sims.map(({ context, sim }) => ({
      name: context,
      cluster: { server: sim.url, 'certificate-authority-data': Buffer.from(sim.caPem).toString('base64') },
    })),
    users: sims.map(({ context, sim }) => ({ name: `${context}-admin`, user: { token: sim.tokens.admin } })),
    contexts: sims.map(({ context }) => ({
      name: context,
      context: { cluster: context, user: `${context}-admin` },
    })),
    'current-context': sims[0]?.context ?? '',
    preferences: {},
  });
}

export async function startDemo(): Promise<Demo> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-demo-'));
  const started: { context: string; sim: RunningSim }[] = [];
  try {
    for (const c of DEMO_CLUSTERS)
      started.push({ context: c.context, sim: await startSim({ scenario: c.scenario }) });
  } catch (error) {
    for (const s of started) await s.sim.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const kubeconfigPath = path.join(dir, 'kubeconfig');
  writeFileSync(kubeconfigPath, demoKubeconfig(started), { mode: 0o600 });
  const settingsDir = path.join(dir, 'settings');
  // Both clusters monitored from the start (with nothing saved only the current context would be).
  openSettings({ cwd: settingsDir }).update({ contexts: started.map((s) => s.context) });
  const first = started[0] as { sim: RunningSim };
  return {
    sim: first.sim,
    sims: new Map(started.map((s) => [s.context, s.sim])),
    kubeconfigPath,
    settingsDir,
    close: async () => {
      for (const s of started) await s.sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type DemoReason = 'asked' | 'no-kubeconfig';

/**
 * The demo when the user asked for it, or when no kubeconfig exists at all (so the app shows
 * something useful at once); null when the user's own clusters are there to monitor.
 */
export async function demoIfWanted(
  asked: boolean,
  kubeconfig: KubeconfigLocateOptions,
): Promise<{ demo: Demo; reason: DemoReason } | null> {
  if (asked) return { demo: await startDemo(), reason: 'asked' };
  if (loadKubeconfig(kubeconfig).kind === 'none') return { demo: await startDemo(), reason: 'no-kubeconfig' };
  return null;
}
