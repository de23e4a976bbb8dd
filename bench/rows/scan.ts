/**
 * Row 6: `gpu-fleet scan` as a user runs it (a fresh process of the built CLI) against a fresh process doing
 * a plain client-node paged list of the same nodes, built the same way (plain JavaScript, no loader), so
 * only the work differs: wall time and peak RSS, direct and through a proxy with gzip on and off. And
 * `gpu-fleet --help`: start-up time and peak RSS beside the TypeScript-loader start-up it replaced. Rows 6f
 * and 6g put scan beside a raw https list (the least any tool pays), without and with a per-request latency;
 * 6h does so with neither side's answers gzipped (scan asks for gzip, the raw list does not).
 */
import path from 'node:path';
import { buildBaseline } from '../lib/built-baseline.ts';
import { startEncodingProxy } from '../lib/encoding-proxy.ts';
import type { RemoteSim } from '../lib/sim-remote.ts';
import { bytes, max, median, ms, ratio, seconds } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';
import { type Run, timedNode as timed } from '../lib/timed.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const BIN = path.join(ROOT, 'bin/gpu-fleet.mjs');
/** The issue's goals: scan ≤ 150 MB (10^6 bytes) peak RSS, ≤ 1.2× the plain list; --help ≤ 120 ms, ≤ 60 MiB. */
const SCAN_RSS_GOAL = 150e6;
const SCAN_RATIO_GOAL = 1.2;
const HELP_MS_GOAL = 120;
const HELP_RSS_GOAL = 60 * 2 ** 20;

interface Compared {
  scan: Run[];
  plain: Run[];
}

/** What row 6g's simulator waits before answering each request: a real server's round trip and admission. */
export const SIM_LATENCY_MS = 5;

async function compare(kubeconfig: string, plainJs: string, runs: number, dir: string): Promise<Compared> {
  const out: Compared = { scan: [], plain: [] };
  for (let i = 0; i < runs; i++) {
    out.scan.push(await timed([BIN, 'scan', '--kubeconfig', kubeconfig, '-o', 'json'], dir));
    out.plain.push(await timed([plainJs, kubeconfig], dir));
  }
  return out;
}

const medianMs = (rs: Run[]) => median(rs.map((r) => r.ms));
const medianCpu = (rs: Run[]) => median(rs.map((r) => r.cpuMs));
const peak = (rs: Run[]) => max(rs.map((r) => r.rss));

function scanRow(id: string, what: string, r: Compared, wireBytesPerRun?: number): Row {
  const [s, p] = [medianMs(r.scan), medianMs(r.plain)];
  const [sr, pr] = [peak(r.scan), peak(r.plain)];
  const large = what.includes('5000');
  return {
    id,
    measure: `\`gpu-fleet scan -o json\` wall time and peak RSS, ${what} (median of ${r.scan.length})`,
    ours: `${seconds(s)} (${ratio(s, p)}), ${bytes(sr)}${wireBytesPerRun === undefined ? '' : `; ${bytes(wireBytesPerRun)} on the wire per run (both)`}`,
    baseline: `${seconds(p)}, ${bytes(pr)} (a plain client-node paged list, built the same way)`,
    target: large ? `≤ ${SCAN_RATIO_GOAL}× the plain list, ≤ 150 MB peak RSS` : '–',
    met: large ? s / p <= SCAN_RATIO_GOAL && sr <= SCAN_RSS_GOAL : null,
    raw: wireBytesPerRun === undefined ? { ...r } : { ...r, wireBytesPerRun },
  };
}

function rawRow(id: string, what: string, r: Compared): Row {
  const [s, p] = [medianMs(r.scan), medianMs(r.plain)];
  const [sc, pc] = [medianCpu(r.scan), medianCpu(r.plain)];
  return {
    id,
    measure: `\`gpu-fleet scan -o json\` wall time beside a raw paged list (plain https + JSON.parse, pages of 500), ${what} (median of ${r.scan.length})`,
    ours: `${seconds(s)} (${ratio(s, p)}); CPU ${seconds(sc)} (${ratio(sc, pc)}), ${bytes(peak(r.scan))}`,
    baseline: `${seconds(p)}; CPU ${seconds(pc)}, ${bytes(peak(r.plain))} (raw list, built the same way)`,
    target: `≤ ${SCAN_RATIO_GOAL}× the raw list`,
    met: s / p <= SCAN_RATIO_GOAL,
    raw: { ...r },
  };
}

export async function scanRows(
  homelab: RemoteSim,
  large: RemoteSim,
  /** large:5000 again, answering each request SIM_LATENCY_MS late. */
  slow: RemoteSim,
  dir: string,
  log: (s: string) => void,
): Promise<Row[]> {
  log('row 6: building the plain-list baselines (Vite, as the CLI)');
  const plainJs = await buildBaseline('bench/baselines/list-cli.ts');
  const rawJs = await buildBaseline('bench/baselines/raw-nodes-cli.ts');
  log('row 6: gpu-fleet --help (10 runs) vs the tsx-loader start-up it replaced (5 runs)');
  const help: Run[] = [];
  const viaTsx: Run[] = [];
  const bare: Run[] = [];
  for (let i = 0; i < 10; i++) help.push(await timed([BIN, '--help'], dir));
  for (let i = 0; i < 5; i++) {
    viaTsx.push(await timed(['--import', 'tsx', 'main/cli/entry.ts', '--help'], dir));
    bare.push(await timed(['-e', '0'], dir));
  }
  log('row 6: gpu-fleet scan vs a plain list, homelab');
  const small = await compare(homelab.kubeconfigPath, plainJs, 3, dir);
  log('row 6: gpu-fleet scan vs a plain list, large:5000');
  const big = await compare(large.kubeconfigPath, plainJs, 3, dir);
  log('row 6: gpu-fleet scan vs a raw https list, large:5000, then with a per-request latency');
  const raw = await compare(large.kubeconfigPath, rawJs, 3, dir);
  const rawSlow = await compare(slow.kubeconfigPath, rawJs, 3, dir);
  const viaProxy = async (gzip: boolean) => {
    log(`row 6: the same through a loopback proxy, gzip ${gzip ? 'on' : 'off'}`);
    const proxy = await startEncodingProxy(large.info, { gzip, dir });
    try {
      const r = await compare(proxy.kubeconfigPath, plainJs, 2, dir);
      const wireBytes = proxy.bytesOut() / (r.scan.length + r.plain.length);
      // 6h: scan beside the raw list with neither side's answers gzipped, so the server's compression
      // (which the raw list never asks for) is out of the comparison and only the clients' work differs.
      const rawSameEncoding = gzip ? null : await compare(proxy.kubeconfigPath, rawJs, 3, dir);
      return { r, wireBytes, rawSameEncoding };
    } finally {
      await proxy.close();
    }
  };
  const gz = await viaProxy(true);
  const plainText = await viaProxy(false);
  if (!plainText.rawSameEncoding) throw new Error('row 6h: no raw list through the gzip-off proxy');
  const [h, t, b] = [medianMs(help), medianMs(viaTsx), medianMs(bare)];
  return [
    scanRow('6a', 'homelab', small),
    scanRow('6b', 'large:5000', big),
    scanRow('6c', 'large:5000 through a proxy, gzip on', gz.r, gz.wireBytes),
    scanRow('6d', 'large:5000 through a proxy, gzip off', plainText.r, plainText.wireBytes),
    rawRow('6f', 'large:5000', raw),
    rawRow('6g', `large:5000, the simulator answering each request ${SIM_LATENCY_MS} ms late`, rawSlow),
    rawRow(
      '6h',
      'large:5000, both through a loopback proxy that drops Accept-Encoding (no gzip either side)',
      plainText.rawSameEncoding,
    ),
    {
      id: '6e',
      measure: '`gpu-fleet --help`: start-up to exit (wall, and CPU), and peak RSS (median of 10)',
      ours: `${ms(h)} (CPU ${ms(medianCpu(help))}), ${bytes(peak(help))} (built JavaScript, dist/cli/)`,
      baseline: `${ms(t)} (CPU ${ms(medianCpu(viaTsx))}), ${bytes(peak(viaTsx))} through the tsx loader (before); bare \`node -e 0\`: ${ms(b)} (CPU ${ms(medianCpu(bare))}), ${bytes(peak(bare))}`,
      target: '≤ 120 ms, ≤ 60 MiB',
      met: h <= HELP_MS_GOAL && peak(help) <= HELP_RSS_GOAL,
      raw: { help, viaTsx, bare },
    },
  ];
}
