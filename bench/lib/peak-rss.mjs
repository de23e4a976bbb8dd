// Preloaded (`node --import ./bench/lib/peak-rss.mjs …`) into a process the bench starts: when the process
// exits, "<peak RSS bytes> <CPU ms>" is appended to the file named by GPU_FLEET_BENCH_RSS_FILE. The peak
// is Linux's VmHWM (this program's own high-water mark: getrusage's maxRSS would start at the RSS of the
// parent at fork time), else getrusage. Plain JavaScript: measuring adds no TypeScript loader.
import { appendFileSync, readFileSync } from 'node:fs';

function peakRss() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

const file = process.env.GPU_FLEET_BENCH_RSS_FILE;
if (file)
  process.on('exit', () => {
    const u = process.resourceUsage();
    appendFileSync(file, `${peakRss()} ${(u.userCPUTime + u.systemCPUTime) / 1000}\n`);
  });
