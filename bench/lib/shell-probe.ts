/**
 * Child-process entry for row 4c: the longest event-loop stall of the process that owns the tray and the
 * window's IPC while three 5,000-node contexts sync. The simulators run in sim-host.ts; this process is
 * measured alone. Prints one JSON line.
 *
 * - `shell`: the built main bundle (.vite/build/main.cjs) under the Electron double, so the engine runs in
 *   its utility process (a real Node child); each run is a fresh app with fresh settings (userData).
 * - `in-process`: the old shape, the app core (engine, alerts, write-back, settings) in this same process,
 *   with what the old shell did beside it: the tray's model of every snapshot, the words of every
 *   notification.
 *
 * argv[2]: JSON ShellProbeArgs. Run from the repository root (the double and the bundle resolve from it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Alert } from '../../common/alerts.ts';
import { effectiveLocale } from '../../common/i18n/locales.ts';
import { translator } from '../../common/i18n/translator.ts';
import { desktopNotice } from '../../common/notification.ts';
import { defaultSettings } from '../../common/settings.ts';
import { type TrayFleet, trayFleet } from '../../main/engine-host/tray/tray-fleet.ts';
import { buildTrayModel } from '../../main/engine-host/tray/tray-model.ts';
import { AppCore } from '../../main/fleet/app-core.ts';
import { openSettings } from '../../main/settings/store.ts';
import type { ElectronDouble, UtilityProcessDouble } from '../../test/electron/electron-double.ts';
import { loadMainBundle } from '../../test/electron/load-main.ts';
import { type Handling, HandlingTimes, type HostFigures, hostStats, isTrayMessage } from './host-messages.ts';
import { type Stall, StallMeter } from './stall.ts';

export interface ShellProbeArgs {
  task: 'shell' | 'in-process';
  /** One kubeconfig naming every context (sims-kubeconfig.ts). */
  kubeconfig: string;
  contexts: string[];
  runs: number;
  /** How long the meter runs on after the sync (work scheduled right after it counts too). */
  settleMs: number;
  /** false: every context's free GPUs switched off in the settings (row 12e's baseline); on when absent. */
  freeGpus?: boolean;
}

export interface ShellStallRun {
  /** ms from the start until every context is live with its whole inventory in the tray. */
  ms: number;
  /** The longest gap between 1 ms ticks, and the CPU this process used in it. */
  stallMs: number;
  stallCpuMs: number;
  /** The gap in which this process computed the most: that CPU time, and the gap's length. */
  busiestCpuMs: number;
  busiestMs: number;
  /** shell: the engine host's own figures (its longest loop delay since it started; RSS after the sync). */
  host: HostFigures | null;
  /** GPU nodes per context once synced. */
  gpuNodes: number[];
  /** shell: how long the shell took over each kind of host message (all its listeners, synchronously). */
  handling: Handling[];
  /** shell: what the tray said at the end (a check that it shows what the host sent). */
  tooltip: string | null;
}

export interface ShellProbe {
  runs: ShellStallRun[];
}

const LIMIT_MS = 180_000;
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * True once every context is live with an inventory: the engine swaps a list in whole, so an inventory is
 * always the whole cluster's, and a fresh settings file has no last-known one to show before it.
 */
function synced(fleet: TrayFleet, a: ShellProbeArgs): boolean {
  if (fleet.contexts.length !== a.contexts.length) return false;
  return fleet.contexts.every((c) => c.connection.phase === 'live' && c.inventory !== null);
}

/** GPU nodes per context in the summary that ended the sync. */
const gpuNodesOf = (fleet: TrayFleet) => fleet.contexts.map((c) => c.inventory?.total_gpu_nodes ?? 0);

/**
 * The same from the host's tray model, which is words only: every context's line gives its ready and
 * total counts (the double's OS language is en-US, and the settings leave the language on auto).
 * Returns the GPU nodes per context once all are there, else null.
 */
function syncedTooltip(tooltip: string, a: ShellProbeArgs): number[] | null {
  const totals: number[] = [];
  for (const ctx of a.contexts) {
    const line = tooltip.split('\n').find((l) => l.startsWith(`${ctx} — `));
    const m = line?.match(/ — ([\d,]+)\/([\d,]+) ready GPU nodes/);
    if (!m?.[2]) return null;
    totals.push(Number(m[2].replace(/,/g, '')));
  }
  return totals;
}

/** A promise `done()` resolves, rejected after LIMIT_MS naming what never came. */
function deferred(what: string): { promise: Promise<void>; done: () => void } {
  let done: () => void = () => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench 4c: timed out waiting for ${what}`)), LIMIT_MS);
    done = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { promise, done };
}

const settingsFor = (a: ShellProbeArgs) =>
  JSON.stringify({
    ...defaultSettings(),
    contexts: a.contexts,
    ...(a.freeGpus === false ? { freeGpus: Object.fromEntries(a.contexts.map((c) => [c, false])) } : {}),
  });

/**
 * A full collection before a measured start: a launched app has no earlier start's garbage to collect,
 * and these runs share one process (a no-op without --expose-gc).
 */
function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 2; i++) gc?.();
}

/** The longest gap and the busiest one, as a run reports them. */
const stallFigures = (longest: Stall, busiest: Stall) => ({
  stallMs: longest.maxMs,
  stallCpuMs: longest.cpuMs,
  busiestCpuMs: busiest.cpuMs,
  busiestMs: busiest.maxMs,
});

/** One start of the desktop app, from loading its bundle to every context synced in the tray. */
async function shellRun(a: ShellProbeArgs): Promise<ShellStallRun> {
  const synced3 = deferred('every context live with its inventory in the tray');
  let host: UtilityProcessDouble | null = null;
  const meter = new StallMeter();
  let gpuNodes: number[] = [];
  const handling = new HandlingTimes();
  const double: ElectronDouble = loadMainBundle((d) => {
    fs.writeFileSync(path.join(d.userData, 'settings.json'), settingsFor(a));
    // The shell forks its host a tick after the bundle loads: hear what the host tells the shell
    // (the tray model it words) from its first message on.
    const fork = d.forkUtility.bind(d);
    d.forkUtility = (...args) => {
      const up = fork(...args);
      host = up;
      handling.watch(up);
      up.on('message', (m: unknown) => {
        if (!isTrayMessage(m)) return;
        const totals = syncedTooltip(m.model.tooltip, a);
        if (!totals) return;
        gpuNodes = totals;
        synced3.done();
      });
      return up;
    };
  });
  // Loading the bundle is the app's launch, before the host exists; the meter covers the rest.
  collect();
  meter.start();
  const t0 = performance.now();
  await synced3.promise;
  const ms = performance.now() - t0;
  const live = host as UtilityProcessDouble | null;
  if (!live) throw new Error('bench 4c: the shell forked no engine host');
  const atSync = await hostStats(live);
  await settle(a.settleMs);
  const stall = meter.stop();
  const afterSettle = await hostStats(live);
  const tooltip = double.trays[0]?.tooltip ?? null;
  await double.close();
  fs.rmSync(double.userData, { recursive: true, force: true });
  return {
    ms,
    ...stallFigures(stall, meter.busiest),
    host: {
      loopDelayMaxMs: Math.max(atSync.loopDelayMaxMs, afterSettle.loopDelayMaxMs),
      rssBytes: afterSettle.rssBytes,
    },
    gpuNodes,
    handling: handling.table(),
    tooltip,
  };
}

/** The old shape: the app core, the tray's model and the notifications' words in this process. */
async function inProcessRun(a: ShellProbeArgs): Promise<ShellStallRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-bench-4c-'));
  fs.writeFileSync(path.join(dir, 'settings.json'), settingsFor(a));
  const synced3 = deferred('every context live with its inventory');
  const meter = new StallMeter();
  collect();
  meter.start();
  const t0 = performance.now();
  const core = new AppCore({
    settings: openSettings({ cwd: dir }),
    kubeconfig: { explicitPath: a.kubeconfig, env: process.env },
    mode: 'electron',
    version: '0.0.0-bench',
    systemLanguages: ['en-US'],
  });
  let gpuNodes: number[] = [];
  // What the old desktop shell did beside the engine: the tray redrawn from every snapshot, and every
  // alert to notify worded in the user's language.
  const tr = translator(effectiveLocale(core.settings.get('language'), ['en-US']));
  core.engine.on((e) => {
    if (e.type !== 'snapshot') return;
    const fleet = trayFleet(e.snapshot);
    buildTrayModel(fleet, tr, core.kubectlContexts());
    if (!synced(fleet, a)) return;
    gpuNodes = gpuNodesOf(fleet);
    synced3.done();
  });
  core.onPush((channel, payload) => {
    if (channel === 'alerts:notify') desktopNotice(payload as Alert, tr);
  });
  core.start();
  await synced3.promise;
  const ms = performance.now() - t0;
  await settle(a.settleMs);
  const stall = meter.stop();
  core.stop();
  await settle(200);
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    ms,
    ...stallFigures(stall, meter.busiest),
    host: null,
    gpuNodes,
    handling: [],
    tooltip: null,
  };
}

const args = JSON.parse(process.argv[2] ?? '{}') as ShellProbeArgs;
// The shell passes its environment on to the host: this is how the app finds the clusters.
process.env.KUBECONFIG = args.kubeconfig;
const runs: ShellStallRun[] = [];
for (let r = 0; r < args.runs; r++) {
  runs.push(await (args.task === 'shell' ? shellRun(args) : inProcessRun(args)));
  await settle(200);
}
process.stdout.write(`${JSON.stringify({ runs } satisfies ShellProbe)}\n`);
process.exit(0);
