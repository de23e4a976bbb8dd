/**
 * Row 6: `gpu-fleet scan` wall time (a fresh process, as a user runs it) vs a fresh process doing a plain
 * client-node list of the same nodes. Both start Node with tsx, so only the work differs.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { median, ratio, seconds } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

function timed(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited with ${code}`));
      else resolve(performance.now() - t0);
    });
  });
}

async function compare(kubeconfig: string, runs: number) {
  const scan: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < runs; i++) {
    scan.push(await timed(['bin/gpu-fleet.mjs', 'scan', '--kubeconfig', kubeconfig, '-o', 'json']));
    plain.push(await timed(['--import', 'tsx', 'bench/baselines/list-cli.ts', kubeconfig]));
  }
  return { scan, plain };
}

export async function scanRows(homelab: string, large: string, log: (s: string) => void): Promise<Row[]> {
  log('row 6: gpu-fleet scan vs a plain list, homelab');
  const small = await compare(homelab, 3);
  log('row 6: gpu-fleet scan vs a plain list, large:5000');
  const big = await compare(large, 2);
  const row = (id: string, what: string, r: { scan: number[]; plain: number[] }): Row => {
    const [s, p] = [median(r.scan), median(r.plain)];
    return {
      id,
      measure: `\`gpu-fleet scan -o json\` wall time, ${what} (median of ${r.scan.length})`,
      ours: `${seconds(s)} (${ratio(s, p)})`,
      baseline: `${seconds(p)} (node + client-node list, same startup)`,
      target: '– (sync target: ≤ 1.2×)',
      met: null,
      raw: r,
    };
  };
  return [row('6a', 'homelab', small), row('6b', 'large:5000', big)];
}
