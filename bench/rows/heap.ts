/**
 * Row 3: retained heap per cached node — our whole engine, and our watcher + node cache alone, vs
 * client-node's informer, which caches whole Node objects. Each figure is the slope between a 1,000- and a
 * 5,000-node cluster, measured in a fresh process with --expose-gc, so fixed costs (TLS, agents) cancel;
 * V8's bytecode flushing is off there, and each size starts with the previous holder collected (probe.ts).
 */
import { runChild } from '../lib/child.ts';
import type { HeapProbe, ProbeArgs } from '../lib/probe.ts';
import { bytes } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const probe = (a: ProbeArgs) => runChild<HeapProbe>('probe.ts', a, ['--expose-gc', '--no-flush-bytecode']);

const perNode = (p: HeapProbe) => (p.bytes[1] - p.bytes[0]) / (p.nodes[1] - p.nodes[0]);

export async function heapRow(small: string, large: string, log: (s: string) => void): Promise<Row> {
  const base = {
    task: 'heap' as const,
    kubeconfigs: [small, large],
    nodes: [1000, 5000] as [number, number],
  };
  log('row 3: retained heap, our engine');
  const engine = await probe({ ...base, holder: 'engine' });
  log('row 3: retained heap, our watcher + cache alone');
  const watcher = await probe({ ...base, holder: 'watcher' });
  log("row 3: retained heap, client-node's informer");
  const informer = await probe({ ...base, holder: 'informer' });
  const ours = perNode(engine);
  return {
    id: '3',
    measure: 'Retained heap per cached node (slope 1,000 → 5,000 nodes)',
    ours: `${bytes(ours)}/node whole engine (inventory, alert state, history included); ${bytes(perNode(watcher))}/node watcher + node cache alone`,
    baseline: `${bytes(perNode(informer))}/node (client-node informer, whole Node objects)`,
    target: '≤ 1 KB per node',
    met: ours <= 1024,
    raw: { engine, watcher, informer },
  };
}
