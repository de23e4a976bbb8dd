/**
 * Child-process entry that runs one or more simulators (so their CPU work never shows up in the measured
 * process's event loop or heap), writes each one's kubeconfig, prints one JSON line describing them, and
 * exits when its stdin closes (the parent died or is done).
 *
 * argv[2]: JSON SimHostArgs: one simulator per scenario (e.g. ['large:5000', 'large:5000', 'homelab']).
 */
import path from 'node:path';
import { type RunningSim, startSim } from '../../sim/index.ts';

export interface SimHostArgs {
  scenarios: string[];
  bookmarkIntervalMs?: number;
  /** Each simulator waits this long before answering a request (SimOptions.requestLatencyMs). */
  requestLatencyMs?: number;
  dir: string;
}

export interface HostedSim {
  url: string;
  caPem: string;
  adminToken: string;
  kubeconfigPath: string;
}

const args = JSON.parse(process.argv[2] ?? '{}') as SimHostArgs;
const sims: RunningSim[] = [];
const out: HostedSim[] = [];
for (const [i, scenario] of args.scenarios.entries()) {
  const sim = await startSim({
    scenario,
    // The bench drives these simulators from another process, through their HTTP controls.
    httpControls: true,
    ...(args.bookmarkIntervalMs ? { bookmarkIntervalMs: args.bookmarkIntervalMs } : {}),
    ...(args.requestLatencyMs ? { requestLatencyMs: args.requestLatencyMs } : {}),
  });
  const kubeconfigPath = path.join(args.dir, `sim-${i}.yaml`);
  await sim.writeKubeconfig(kubeconfigPath);
  sims.push(sim);
  out.push({ url: sim.url, caPem: sim.caPem, adminToken: sim.tokens.admin, kubeconfigPath });
}
process.stdout.write(`${JSON.stringify({ sims: out })}\n`);

const shutdown = async () => {
  for (const s of sims) await s.close();
  process.exit(0);
};
process.stdin.on('end', () => void shutdown());
process.stdin.on('close', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
process.stdin.resume();
