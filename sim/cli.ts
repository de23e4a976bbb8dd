// `gpu-fleet sim`: start the simulator in the foreground, optionally write its kubeconfig, print the URL.
import { type RunningSim, startSim } from './index.ts';

export async function runSimCommand(
  args: { scenario?: string; port?: number; kubeconfigOut?: string; httpControls?: boolean },
  out: NodeJS.WritableStream,
): Promise<RunningSim> {
  const scenario = args.scenario ?? 'homelab';
  const sim = await startSim({ scenario, port: args.port ?? 0, httpControls: args.httpControls === true });
  if (args.kubeconfigOut) await sim.writeKubeconfig(args.kubeconfigOut);
  out.write(`GPU Fleet simulator (scenario ${scenario}) listening on ${sim.url}\n`);
  return sim;
}
