/** Runs a fresh Node process to completion (with peak-rss.mjs preloaded): its wall time, peak RSS and CPU. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const PEAK_RSS = path.join(ROOT, 'bench/lib/peak-rss.mjs');

export interface Run {
  ms: number;
  rss: number;
  /** User + system CPU time of the process: less sensitive than wall time to a loaded machine. */
  cpuMs: number;
}

/** Runs `node [--import peak-rss] ...args` to completion; its wall time and peak RSS. */
export function timedNode(args: string[], dir: string): Promise<Run> {
  const rssFile = path.join(dir, `rss-${process.hrtime.bigint()}.txt`);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', PEAK_RSS, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, GPU_FLEET_BENCH_RSS_FILE: rssFile },
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited with ${code}`));
      const [rss, cpuMs] = fs.readFileSync(rssFile, 'utf8').trim().split(' ').map(Number);
      fs.rmSync(rssFile, { force: true });
      if (!Number.isFinite(rss) || !Number.isFinite(cpuMs))
        return reject(new Error(`${args.join(' ')}: no peak RSS`));
      resolve({ ms, rss: rss as number, cpuMs: cpuMs as number });
    });
  });
}
