/**
 * Row 8: what DCGM telemetry adds to the API server's load, per context, with the default budget
 * (20 scrapes a minute, each node at most once a minute, discovery every 5 minutes), over 10 simulated
 * minutes on a manual clock: 50 and 5,000 GPU nodes, each with a simulated dcgm-exporter (1 GPU, the
 * default counters). The no-telemetry baseline is the engine's own watch (row 2), to which telemetry off
 * adds nothing. At 5,000 GPU nodes the default ('auto', ≤ 200 GPU nodes) keeps the background off; the
 * row measures it turned 'on' to show why.
 */
import { DEFAULT_TELEMETRY } from '../../common/telemetry.ts';
import { driveBackground } from '../../main/fleet/telemetry-hub.testkit.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { startSimContext } from '../../test/helpers/sim-context.ts';
import { bytes } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const MINUTES = 10;

async function measure(n: number, log: (s: string) => void) {
  log(`row 8: ${n} GPU nodes with exporters, ${MINUTES} simulated minutes of background telemetry`);
  const sc = await startSimContext({ scenario: 'empty' });
  try {
    const nodes = Array.from({ length: n }, (_, i) => `gpu-${String(i).padStart(4, '0')}`);
    for (const name of nodes)
      sc.sim.control.addNode({
        metadata: { name, labels: { 'nvidia.com/gpu.present': 'true', 'nvidia.com/gpu.count': '1' } },
        status: { conditions: [{ type: 'Ready', status: 'True' }] },
      });
    sc.sim.control.addDcgmExporters(nodes);
    const r = await driveBackground({
      sim: sc.sim,
      context: sc.context('sim-admin'),
      gpuNodes: nodes,
      clock: new ManualClock(Date.now()),
      minutes: MINUTES,
      settings: { ...DEFAULT_TELEMETRY, background: 'on' },
    });
    const scrapes = r.log.filter((e) => e.path.includes('/proxy/metrics'));
    const lists = r.log.filter((e) => e.path.includes('/pods?'));
    const sum = (xs: typeof r.log) => xs.reduce((s, e) => s + e.bytes, 0);
    return {
      requestsPerMin: r.log.length / MINUTES,
      bytesPerMin: sum(r.log) / MINUTES,
      scrapes: scrapes.length,
      lists: lists.length,
      scrapeBytes: sum(scrapes),
      listBytes: sum(lists),
      nodesCovered: new Set(scrapes.map((e) => e.path)).size,
    };
  } finally {
    await sc.cleanup();
  }
}

export async function telemetryRows(log: (s: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [id, n] of [
    ['8a', 50],
    ['8b', 5000],
  ] as const) {
    const m = await measure(n, log);
    const auto = n <= DEFAULT_TELEMETRY.autoMaxGpuNodes;
    rows.push({
      id,
      measure: `API requests and bytes a minute telemetry adds, ${n.toLocaleString('en')} GPU nodes, default budget${auto ? '' : " ('on'; the default 'auto' is off here)"}`,
      ours: `${m.requestsPerMin.toFixed(1)} req/min, ${bytes(m.bytesPerMin)}/min (${m.scrapes} scrapes of ${bytes(m.scrapeBytes)}, ${m.lists} discovery LISTs of ${bytes(m.listBytes)}; ${m.nodesCovered} of ${n} nodes read in ${MINUTES} min)`,
      baseline: 'telemetry off: 0 req/min, 0 B/min added (the watch of row 2 is unchanged)',
      target: '≤ 20 scrapes/min per context',
      met: m.scrapes <= 20 * MINUTES,
      raw: { n, ...m, auto },
    });
  }
  return rows;
}
