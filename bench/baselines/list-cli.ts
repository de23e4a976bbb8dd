/** Baseline process for row 6: list every node with client-node (pages of 500), print the count, exit. */
import { kubeConfigFor, plainList } from './plain-list.ts';

const nodes = await plainList(kubeConfigFor(process.argv[2] ?? ''));
process.stdout.write(`${nodes.length}\n`);
