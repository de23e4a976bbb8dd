/**
 * Rows 1 and 4: time to the first inventory of large:5000 vs client-node's plain paged list, and the
 * longest event-loop stall while syncing one and three such clusters; plus a what-if with larger (500-node) pages.
 */
import { runChild } from '../lib/child.ts';
import type { ProbeArgs, SyncProbe } from '../lib/probe.ts';
import { max, median, ms, ratio, seconds } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const probe = (a: ProbeArgs) => runChild<SyncProbe>('probe.ts', a);

/** The gap, the process's CPU in it and (where the probe measured it) the event loop thread's share. */
const one = (p: SyncProbe, i: number) => {
  const thread = p.stallThreadMs?.[i];
  const own = thread === undefined ? '' : `, ${ms(thread)} of it the loop's thread`;
  return `${ms(p.stallMs[i] ?? Number.NaN)} (${ms(p.stallCpuMs[i] ?? Number.NaN)} on our CPU${own})`;
};

/** The first run is cold (code compiled on first use, as at app launch); the others are warm. */
const stallText = (p: SyncProbe) => {
  const warm = p.stallMs.slice(1);
  const w = warm.indexOf(median(warm)) + 1;
  return w > 0
    ? `cold ${one(p, 0)}; warm ${one(p, w)}`
    : `cold ${one(p, 0)}; warm median ${ms(median(warm))}`;
};

export interface SyncResult {
  rows: Row[];
  notes: string[];
}

export async function syncRows(large: string[], log: (s: string) => void): Promise<SyncResult> {
  const first = large.slice(0, 1);
  log('row 1: initial sync of large:5000, ours then client-node (4 runs each, the first one cold)');
  const ours1 = await probe({ task: 'sync-ours', kubeconfigs: first, runs: 4 });
  const plain1 = await probe({ task: 'sync-plain', kubeconfigs: first, runs: 4 });
  log('row 4: three large:5000 contexts at once');
  const ours3 = await probe({ task: 'sync-ours', kubeconfigs: large, runs: 3 });
  const plain3 = await probe({ task: 'sync-plain', kubeconfigs: large, runs: 3 });
  log('what-if: the same syncs with 500-node pages (the default is 100)');
  const large500 = { watcher: { pageSize: 500 } };
  const what1 = await probe({ task: 'sync-ours', kubeconfigs: first, runs: 4, engine: large500 });
  const what3 = await probe({ task: 'sync-ours', kubeconfigs: large, runs: 3, engine: large500 });

  const [o, p] = [median(ours1.ms), median(plain1.ms)];
  const rows: Row[] = [
    {
      id: '1',
      measure: 'Initial sync of large:5000: time to first inventory (median of 4)',
      ours: `${seconds(o)} (${ratio(o, p)} the plain list)`,
      baseline: `${seconds(p)} (client-node listNode, pages of 500)`,
      target: '≤ 1.2× the plain list',
      met: o <= 1.2 * p,
      raw: { ours: ours1, plain: plain1 },
    },
    {
      id: '4a',
      measure:
        'Longest event-loop stall during the 5,000-node sync, 1 context (cold run, then the median warm run)',
      ours: stallText(ours1),
      baseline: `${stallText(plain1)} (plain list)`,
      target: '≤ 50 ms',
      met: max(ours1.stallMs) <= 50,
      raw: {
        ours: ours1.stallMs,
        oursCpu: ours1.stallCpuMs,
        oursThread: ours1.stallThreadMs,
        plain: plain1.stallMs,
      },
    },
    {
      id: '4b',
      measure: 'Longest event-loop stall, 3 contexts of 5,000 nodes at once (cold, then median warm)',
      ours: `${stallText(ours3)}; all synced in ${seconds(median(ours3.ms))}`,
      baseline: `${stallText(plain3)}; listed in ${seconds(median(plain3.ms))} (3 plain lists)`,
      target: '≤ 50 ms',
      met: max(ours3.stallMs) <= 50,
      raw: { ours: ours3, plain: plain3, whatIfPageSize100: { one: what1, three: what3 } },
    },
  ];
  const notes = [
    `What-if, watcher.pageSize 500 instead of the default 100: 1 context syncs in ${seconds(median(what1.ms))} with a worst stall of ${stallText(what1)}; 3 contexts in ${seconds(median(what3.ms))}, worst stall ${stallText(what3)}.`,
  ];
  return { rows, notes };
}
