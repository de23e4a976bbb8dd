/**
 * Baseline process for row 12d: the nodes and live pods of every context of a kubeconfig, read at once
 * with plain https + JSON.parse (raw-list.ts); prints the counts and exits.
 */
import { rawNodesAndPods, rawTargets } from './raw-list.ts';

const lists = await Promise.all(rawTargets(process.argv[2] ?? '').map((t) => rawNodesAndPods(t)));
process.stdout.write(`${lists.map((l) => `${l.nodes.length} nodes, ${l.pods.length} pods`).join('\n')}\n`);
