/**
 * Starts the Kubernetes API simulator and loads its kubeconfig through our own loader, so tests reach it
 * over real HTTPS with the same code paths a user's cluster takes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findContext, loadKubeconfig } from '../../main/kube/kubeconfig.ts';
import type { LoadedKubeconfig, ResolvedContext } from '../../main/kube/kubeconfig-types.ts';
import { type RunningSim, type SimOptions, startSim } from '../../sim/index.ts';

export interface SimContext {
  sim: RunningSim;
  /** A private temporary folder, removed by cleanup(). */
  dir: string;
  kubeconfigPath: string;
  loaded: LoadedKubeconfig;
  /** A context of the sim's kubeconfig: sim-admin (default), sim-readonly or sim-revocable. */
  context(name?: string): ResolvedContext;
  cleanup(): Promise<void>;
}

export async function startSimContext(options: SimOptions = {}): Promise<SimContext> {
  const sim = await startSim(options);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-sim-'));
  const kubeconfigPath = path.join(dir, 'config');
  await sim.writeKubeconfig(kubeconfigPath);
  const load = loadKubeconfig({ explicitPath: kubeconfigPath });
  if (load.kind !== 'loaded') throw new Error(load.message);
  return {
    sim,
    dir,
    kubeconfigPath,
    loaded: load,
    context(name = 'sim-admin') {
      const ctx = findContext(load, name);
      if (!ctx) throw new Error(`no context ${name}`);
      return ctx;
    },
    async cleanup() {
      await sim.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
