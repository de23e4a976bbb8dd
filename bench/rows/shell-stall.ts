/**
 * Row 4c (issue 15): the longest event-loop stall of the process that owns the tray and the window's IPC
 * while three 5,000-node contexts sync, with the engine in its utility process; the engine host's own
 * longest loop delay beside it; and, as the same-run baseline, the old shape (the engine in the tray's
 * process).
 */
import path from 'node:path';
import { runChild } from '../lib/child.ts';
import type { ShellProbe, ShellProbeArgs, ShellStallRun } from '../lib/shell-probe.ts';
import type { HostedSim } from '../lib/sim-host.ts';
import { writeSimsKubeconfig } from '../lib/sims-kubeconfig.ts';
import { bytes, max, median, ms, seconds } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const NODES = 5000;
const RUNS = 3;
/** Work scheduled right after the last inventory (coalesced snapshots, the tray's update) counts too. */
const SETTLE_MS = 300;
export const SHELL_STALL_TARGET_MS = 16;

// --expose-gc: each start begins after a full collection (shell-probe.ts), as a launched app would.
const probe = (a: ShellProbeArgs) => runChild<ShellProbe>('shell-probe.ts', a, ['--expose-gc']);

/** The run whose stall is the median of the warm ones (runs after the first), or null with none. */
function medianWarm(runs: readonly ShellStallRun[]): ShellStallRun | null {
  const warm = runs.slice(1);
  const m = median(warm.map((r) => r.stallMs));
  return warm.find((r) => r.stallMs === m) ?? warm[Math.floor(warm.length / 2)] ?? null;
}

const stall = (r: ShellStallRun) => `${ms(r.stallMs)} (${ms(r.stallCpuMs)} on its CPU)`;
const hostStall = (r: ShellStallRun) => (r.host ? ms(r.host.loopDelayMaxMs) : 'n/a');

/** "cold X; warm Y" for the first run and the median warm run. */
function coldWarm(runs: readonly ShellStallRun[], text: (r: ShellStallRun) => string): string {
  const [cold] = runs;
  const warm = medianWarm(runs);
  if (!cold) return 'n/a';
  return warm ? `cold ${text(cold)}; warm ${text(warm)}` : `cold ${text(cold)}`;
}

/** The longest time the shell spent on one message of `type`, over every run. */
const slowest = (runs: readonly ShellStallRun[], type: string) =>
  max(runs.flatMap((r) => r.handling.filter((h) => h.type === type).map((h) => h.maxMs)));
/** The most CPU this process used within one gap, over every run. */
const busiest = (runs: readonly ShellStallRun[]) => max(runs.map((r) => r.busiestCpuMs));

/** The row's title (also on the row that says it could not be measured). */
export const shellStallMeasure = (contexts: number) =>
  `Longest stall of the process that owns the tray and IPC while ${contexts} contexts of 5,000 nodes sync (the built main bundle under the Electron double, no real Electron; engine in a forked host process; cold start, then the median warm start); the engine host's own beside it`;

export interface ShellStallResult {
  rows: Row[];
  notes: string[];
}

export async function shellStallRows(
  sims: readonly HostedSim[],
  dir: string,
  log: (s: string) => void,
): Promise<ShellStallResult> {
  const kubeconfig = path.join(dir, 'shell-stall-kubeconfig.yaml');
  const contexts = await writeSimsKubeconfig(kubeconfig, sims);
  const args = { kubeconfig, contexts, runs: RUNS, settleMs: SETTLE_MS };
  log(
    `row 4c: the desktop app (engine in its utility process) on ${sims.length} × large:${NODES}, ${RUNS} starts`,
  );
  const shell = await probe({ ...args, task: 'shell' });
  log('row 4c baseline: the engine in the same process as the tray (the old shape)');
  const inProcess = await probe({ ...args, task: 'in-process' });

  const worst = max(shell.runs.map((r) => r.stallMs));
  const hostRss = shell.runs.map((r) => r.host?.rssBytes ?? Number.NaN);
  const row: Row = {
    id: '4c',
    measure: shellStallMeasure(sims.length),
    ours: `shell ${coldWarm(shell.runs, stall)}, worst ${ms(worst)}, at most ${ms(busiest(shell.runs))} of its own CPU in one gap; slowest messages: notify ${ms(slowest(shell.runs, 'notify'))}, tray ${ms(slowest(shell.runs, 'tray'))}, push ${ms(slowest(shell.runs, 'push'))}; engine host ${coldWarm(shell.runs, hostStall)}; all synced in ${seconds(median(shell.runs.map((r) => r.ms)))}`,
    baseline: `engine in the tray's process: ${coldWarm(inProcess.runs, stall)}, at most ${ms(busiest(inProcess.runs))} of its CPU in one gap; all synced in ${seconds(median(inProcess.runs.map((r) => r.ms)))}`,
    target: `≤ ${SHELL_STALL_TARGET_MS} ms (one frame)`,
    met: worst <= SHELL_STALL_TARGET_MS,
    raw: { shell: shell.runs, inProcess: inProcess.runs, contexts, nodes: NODES },
  };
  const gpu = [...new Set(shell.runs.flatMap((r) => r.gpuNodes))]
    .map((n) => n.toLocaleString('en'))
    .join(' or ');
  const notes = [
    `Row 4c loads the built main bundle (.vite/build/main.cjs) under the Electron double in a process of its own; the double forks the engine host (.vite/build/engine-host.cjs) as a real Node child, and the simulators run in a third process. Every start is a fresh app with fresh settings (no last-known inventories): the first is cold, the others reuse the shell's process, so only the shell is warm there (each begins after a full collection, so an earlier start's garbage is not collected inside the measured span); the host is a new process at every start, as in the app. The meter runs from just after the bundle loads until every context is live with its inventory (${gpu} GPU nodes of 5,000) in the tray (the host words the tray's model and the notifications; the shell only shows them), plus ${SETTLE_MS} ms. No window is open, so the host sends no window pushes (with one open, main relays them as JSON text it does not parse; the double's webContents parses them in this process, which a real renderer does in its own, so that case is not measured here). The host's figure is its own perf_hooks loop-delay maximum over the same span; the baseline runs the app core in one process with what the old shell did beside it (the tray's model of every snapshot, the words of every notification).`,
    `Row 4c: "slowest messages" is the longest the shell's listeners took over one host message of that kind (reading it off the channel comes before and is not in it); "of its own CPU in one gap" is the most CPU time the shell's process used within one gap between 1 ms ticks, the part of a stall that is its own work rather than a wait for a core.`,
    `Row 4c: the engine host's RSS after the sync of ${sims.length} × 5,000 nodes: ${shell.runs.map((_, i) => bytes(hostRss[i] ?? Number.NaN)).join(', ')} (cold, then warm starts).`,
  ];
  return { rows: [row], notes };
}
