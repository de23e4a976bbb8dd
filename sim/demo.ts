/**
 * The built-in demo clusters: two simulators in-process — `home-lab` (the seed story: four GPU nodes down,
 * the kubelets stopped posting status) and `small-lab` (MIG, time-slicing, and an L4 node that flaps about
 * every 40 s, so a drop, its alert, the recovery and the history show within the first minute) — with one
 * kubeconfig naming both, in a new temporary folder. The app's side of the demo (throwaway settings, when
 * to start it) is main/demo/demo.ts; the shells load this file only when a demo is chosen, so nothing of
 * the simulator is linked into the engine.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { type RunningSim, startSim } from './index.ts';

export interface DemoClusters {
  /** The home lab (kept as `sim` for the tests and benchmarks that drive it). */
  sim: RunningSim;
  /** Every demo cluster by its context name. */
  sims: ReadonlyMap<string, RunningSim>;
  /** The context names, in kubeconfig order. */
  contexts: readonly string[];
  /** The temporary folder holding the kubeconfig; removed by close(). */
  dir: string;
  kubeconfigPath: string;
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

export async function startDemoClusters(): Promise<DemoClusters> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-demo-'));
  const started: { context: string; sim: RunningSim }[] = [];
  const kubeconfigPath = path.join(dir, 'kubeconfig');
  try {
    for (const c of DEMO_CLUSTERS)
      started.push({ context: c.context, sim: await startSim({ scenario: c.scenario }) });
    // Inside the try: a kubeconfig that cannot be written must not leave the simulators running.
    writeFileSync(kubeconfigPath, demoKubeconfig(started), { mode: 0o600 });
  } catch (error) {
    for (const s of started) await s.sim.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const first = started[0] as { sim: RunningSim };
  return {
    sim: first.sim,
    sims: new Map(started.map((s) => [s.context, s.sim])),
    contexts: started.map((s) => s.context),
    dir,
    kubeconfigPath,
    close: async () => {
      for (const s of started) await s.sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
