/**
 * The app's side of the demo, for the two shells that offer it (the desktop app and `gpu-fleet serve`):
 * when to start it (asked for, or no kubeconfig exists at all, so the app shows something useful at once)
 * and the throwaway settings that monitor every demo cluster, so trying the app never touches the user's
 * real settings. The clusters themselves are handed in by the shell (sim/demo.ts, loaded with a dynamic
 * import only then), so neither this file nor the engine links the simulator.
 */
import path from 'node:path';
import { type KubeconfigLocateOptions, loadKubeconfig } from '../kube/kubeconfig.ts';
import { openSettings } from '../settings/store.ts';

/** What the shell needs of the demo clusters (sim/demo.ts's DemoClusters satisfies it). */
export interface DemoClustersLike {
  readonly contexts: readonly string[];
  readonly dir: string;
  readonly kubeconfigPath: string;
  close(): Promise<void>;
}

/** The clusters as the starter returned them (tests drive the simulators through them), plus the settings folder. */
export type Demo<C extends DemoClustersLike = DemoClustersLike> = C & { settingsDir: string };

export type DemoReason = 'asked' | 'no-kubeconfig';

/** Starts the demo clusters and gives them throwaway settings that monitor them all. */
export async function startDemo<C extends DemoClustersLike>(start: () => Promise<C>): Promise<Demo<C>> {
  const clusters = await start();
  const settingsDir = path.join(clusters.dir, 'settings');
  try {
    // Every cluster monitored from the start (with nothing saved only the current context would be).
    openSettings({ cwd: settingsDir }).update({ contexts: [...clusters.contexts] });
  } catch (error) {
    await clusters.close();
    throw error;
  }
  return Object.assign(clusters, { settingsDir });
}

/**
 * The demo when the user asked for it, or when no kubeconfig exists at all; null when the user's own
 * clusters are there to monitor (and then `start` is never called).
 */
export async function demoIfWanted<C extends DemoClustersLike>(
  asked: boolean,
  kubeconfig: KubeconfigLocateOptions,
  start: () => Promise<C>,
): Promise<{ demo: Demo<C>; reason: DemoReason } | null> {
  if (asked) return { demo: await startDemo(start), reason: 'asked' };
  if (loadKubeconfig(kubeconfig).kind === 'none')
    return { demo: await startDemo(start), reason: 'no-kubeconfig' };
  return null;
}
