/**
 * The built-in demo: the simulator's `homelab` scenario in-process, its kubeconfig and throwaway
 * settings in a temporary folder, so trying the app never touches the user's real settings.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { type KubeconfigLocateOptions, loadKubeconfig } from '../kube/kubeconfig.ts';

export interface Demo {
  sim: RunningSim;
  kubeconfigPath: string;
  settingsDir: string;
  close(): Promise<void>;
}

export async function startDemo(scenario = 'homelab'): Promise<Demo> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-demo-'));
  const sim = await startSim({ scenario });
  const kubeconfigPath = path.join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfigPath);
  return {
    sim,
    kubeconfigPath,
    settingsDir: path.join(dir, 'settings'),
    close: async () => {
      await sim.close();
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
