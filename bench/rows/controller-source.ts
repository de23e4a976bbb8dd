/**
 * Row 9: what a tray receives at 5,000 nodes when the cluster runs the in-cluster controller, over the
 * bench's 10 flapping minutes — a tray in source `auto` (reading the controller's GpuInventory and Lease)
 * next to a tray watching the nodes itself, both in the same run against the same sim.
 *
 * The controller is stood in for by what its leader does: the same engine and write-back as the app
 * (watching nodes as sim-revocable, status by server-side apply at most once per coalescing window, with
 * the controller's CONTROLLER_FIT_LIMITS: only NotReady nodes listed above SCALE_GPU_NODES) and
 * its Lease renewed by update every retry period (test/helpers/controller-writer.ts). Time is compressed
 * ×20 as in row 2: a GPU node flips every 200 ms (4 s), write-back coalesces over 250 ms (5 s) and the
 * controller's status at scale over 1.5 s (30 s), the Lease is renewed every 100 ms (2 s; its 15 s
 * duration is not compressed) and read by the tray every 500 ms (10 s), watches end after 12–15 s.
 * 10 simulated minutes are 30 s real. Kubelet status reports are modelled (bench/lib/kubelet-reports.ts):
 * every node's kubelet writes its .status once per nodeStatusReportFrequency (5 min → 15 s real) even
 * when nothing changed, spread evenly, so each node watcher gets every Node twice more over the 10 minutes.
 * Bytes are what the sim wrote to each tray's user
 * (sim-admin: auto, sim-readonly: nodes), gzip included where the sim compresses (LISTs over 128 KiB;
 * watch streams are not compressed, as with kube-apiserver).
 */
import { DEFAULT_CONTROLLER_NAMESPACE } from '../../common/settings.ts';
import { FleetEngine } from '../../main/fleet/engine.ts';
import { LEASE_POLL_MS } from '../../main/fleet/source/lease-poll.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import {
  CONTROLLER_FIT_LIMITS,
  DEFAULT_CRD_GROUP,
  SCALE_MIN_INTERVAL_MS,
} from '../../main/writeback/index.ts';
import { LeaderStandIn } from '../../test/helpers/controller-writer.ts';
import { startWriter, untilEvent } from '../lib/engine-sync.ts';
import { settled, sleep, startFlipping } from '../lib/flipper.ts';
import { startKubeletReports } from '../lib/kubelet-reports.ts';
import type { LogEntry, RemoteSim } from '../lib/sim-remote.ts';
import { bytes } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const COMPRESSION = 20;
const FLAP_MS = 4000 / COMPRESSION;
const FLAP_REAL_MS = (10 * 60_000) / COMPRESSION;
const RENEW_MS = 2000 / COMPRESSION;
/** The kubelet's nodeStatusReportFrequency default (5 min), compressed as the rest. */
const REPORT_MS = (5 * 60_000) / COMPRESSION;
const WATCHER = {
  watchSeconds: [240 / COMPRESSION, 300 / COMPRESSION] as [number, number],
  stallTimeoutMs: 90_000 / COMPRESSION,
};
const sum = (xs: LogEntry[]) => xs.reduce((s, e) => s + e.bytes, 0);

export async function controllerSourceRows(sim: RemoteSim, log: (s: string) => void): Promise<Row[]> {
  log('row 9: the controller stand-in (engine + write-back as sim-revocable, Lease renewed every 100 ms)');
  const ctl = sim.context('sim-revocable', 'controller');
  const leaderClient = new ContextClient(ctl);
  // The duration is not compressed: freshness is not what this row measures (the tests prove the fall-back),
  // and a sim busy applying a 4,000-node status must not make the tray fall back mid-measurement.
  const leader = new LeaderStandIn(leaderClient, { durationSeconds: 15 });
  await leader.setUp(Date.now());
  let renewing = true;
  const renewLoop = (async () => {
    while (renewing) {
      await leader.renew(Date.now());
      await sleep(RENEW_MS);
    }
  })();
  const controller = await startWriter(ctl, WATCHER, {
    minIntervalMs: 5000 / COMPRESSION,
    // As the controller writes: above SCALE_GPU_NODES the status lists only the NotReady nodes,
    // and at least 30 s (compressed as the rest) pass between two status writes.
    fitLimits: { ...CONTROLLER_FIT_LIMITS, scaleMinIntervalMs: SCALE_MIN_INTERVAL_MS / COMPRESSION },
  });
  const { writes, writing } = controller;
  await settled(() => writes.length, writing);

  log('row 9: two trays sync: source auto (sim-admin) and source nodes (sim-readonly)');
  const tray = (setting: 'auto' | 'nodes') =>
    new FleetEngine({
      watcher: WATCHER,
      // The Lease is read by GET every 10 s, compressed as the rest.
      source: () => ({
        setting,
        namespace: DEFAULT_CONTROLLER_NAMESPACE,
        group: DEFAULT_CRD_GROUP,
        leasePollMs: LEASE_POLL_MS / COMPRESSION,
      }),
    });
  const auto = tray('auto');
  const nodes = tray('nodes');
  const inventories = { auto: 0, nodes: 0, autoFromController: 0 };
  auto.on((e) => {
    if (e.type !== 'inventory') return;
    inventories.auto++;
    if (e.source === 'controller') inventories.autoFromController++;
  });
  nodes.on((e) => e.type === 'inventory' && inventories.nodes++);
  const synced = (e: FleetEngine) =>
    untilEvent(e, (ev) => ev.type === 'inventory' && !ev.stale, 'the first inventory');
  const both = Promise.all([synced(auto), synced(nodes)]);
  auto.setContexts([sim.context('sim-admin', 'auto')]);
  nodes.setContexts([sim.context('sim-readonly', 'nodes')]);
  await both;
  const sourceAtSync = auto.snapshot().contexts[0]?.source;
  const atSync = (await sim.requestLog()).length;

  log(`row 9: ${FLAP_REAL_MS / 1000} s of flapping (10 simulated minutes)`);
  const writesAtFlap = writes.length;
  const stopReports = await startKubeletReports(sim, REPORT_MS);
  const stopFlipping = startFlipping(sim, FLAP_MS);
  await sleep(FLAP_REAL_MS);
  await stopFlipping();
  const kubelet = await stopReports();
  await settled(() => writes.length, writing);
  const sourceAtEnd = auto.snapshot().contexts[0]?.source;
  auto.stop();
  nodes.stop();
  renewing = false;
  await renewLoop;
  controller.stop();
  leaderClient.close();
  await sleep(500);
  const all = await sim.requestLog();
  const of = (user: string, xs: LogEntry[]) => xs.filter((e) => e.user === user);
  const total = { auto: sum(of('sim-admin', all)), nodes: sum(of('sim-readonly', all)) };
  const flapping = {
    auto: sum(of('sim-admin', all.slice(atSync))),
    nodes: sum(of('sim-readonly', all.slice(atSync))),
  };
  const byKind = (xs: LogEntry[]) => ({
    inventory: sum(xs.filter((e) => e.path.includes('/gpuinventories'))),
    lease: sum(xs.filter((e) => e.path.includes('/leases'))),
    nodes: sum(xs.filter((e) => e.path.startsWith('/api/v1/nodes'))),
  });
  const autoParts = byKind(of('sim-admin', all));
  const statusWrites = writes.filter((w) => w.target === 'status' && w.action === 'written').length;
  // Heartbeat-only changes must not make the controller write: every write while flapping is a real change.
  const flapWrites = writes.slice(writesAtFlap).filter((w) => w.action === 'written');
  const onlyChanges = flapWrites.every((w) => w.reason === 'changed');
  const pct = (a: number, b: number) => (b > 0 ? (100 * a) / b : Number.NaN);
  const share = pct(total.auto, total.nodes);
  return [
    {
      id: '9',
      measure:
        'Bytes a tray receives at 5,000 nodes with the in-cluster controller running, start-up + 10 flapping minutes: source auto vs watching nodes itself',
      ours: `${bytes(total.auto)} (${share.toFixed(1)} %: GpuInventory ${bytes(autoParts.inventory)}, Lease ${bytes(autoParts.lease)}, nodes ${bytes(autoParts.nodes)}); flapping part ${bytes(flapping.auto)} (${pct(flapping.auto, flapping.nodes).toFixed(1)} %); ${statusWrites} status writes by the controller reached it as whole objects; source ${sourceAtSync?.active ?? 'none'} at start, ${sourceAtEnd?.active ?? 'none'} at the end; kubelet status reports modelled: ${kubelet.reports} (every node every 15 s real; ${kubelet.late} of ${Math.round(kubelet.seconds * 10)} ticks found the sim still busy), ${inventories.nodes} inventories in the nodes tray`,
      baseline: `${bytes(total.nodes)} watching nodes (flapping part ${bytes(flapping.nodes)}; start-up ${bytes(total.nodes - flapping.nodes)} vs ${bytes(total.auto - flapping.auto)} in auto)`,
      target: '< 5 %',
      met: share < 5 && onlyChanges,
      raw: {
        total,
        flapping,
        autoParts,
        statusWrites,
        flapWrites,
        inventories,
        sourceAtSync,
        sourceAtEnd,
        kubelet,
      },
    },
  ];
}
