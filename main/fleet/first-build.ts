/**
 * The first inventory of a large cluster, built across turns. Deriving every node at once (entries,
 * free-GPU slots, last-seen labels) after a 5,000-node list held the event loop for 60–110 ms in one
 * task; here a slice of nodes is derived per turn, filling the per-facts memos (inventory/aggregate.ts,
 * inventory/node-slots.ts), then (optionally) the figures over all nodes in a turn of their own, so the
 * build that follows mostly reads them. Small clusters are built at once.
 */
import type { LastSeenLabels } from '../../common/inventory.ts';
import { buildInventory } from '../inventory/index.ts';
import type { NodeFacts } from '../inventory/node-facts.ts';
import { nodeSlots } from '../inventory/node-slots.ts';
import { sharedTurn } from '../kube/turns.ts';

/** Below this many nodes the first build runs in one task, as every later one does. */
export const SLICED_BUILD_MIN = 1000;
/** Nodes derived per turn: a few ms of work on one slow core. */
export const BUILD_SLICE = 250;
/**
 * The first slice is smaller: it runs the derivation's code for the first time in the process (compiled
 * on first use, interpreted until warm), where 250 nodes took 14–22 ms of one turn.
 */
export const FIRST_SLICE = 50;

/** A turn of its own: the slices of several contexts' first builds never share one (kube/turns.ts). */
const nextTurn = sharedTurn;

export interface FirstBuildStep {
  /** The slice's nodes still in the cache as they were (a node changed or deleted since is skipped). */
  current(slice: readonly NodeFacts[]): NodeFacts[];
  /** Remembers the labels of these nodes and returns the last-seen labels now. */
  remember(nodes: readonly NodeFacts[]): ReadonlyMap<string, LastSeenLabels>;
  /** Derive the free-GPU slots too (the free-GPU figures are on). */
  slots: boolean;
  /**
   * Work over every node once all are derived, in a turn of its own before the build (the free-GPU
   * figures of 5,000 nodes: 12–26 ms cold), so the build's own task only reads what it made.
   */
  finish?: () => void;
  cancelled(): boolean;
}

/** Derives the nodes a slice per turn; resolves true when done, false once `cancelled` said to stop. */
export async function primeFirstBuild(nodes: readonly NodeFacts[], step: FirstBuildStep): Promise<boolean> {
  for (let i = 0; i < nodes.length; ) {
    const end = i + (i === 0 ? FIRST_SLICE : BUILD_SLICE);
    await nextTurn();
    if (step.cancelled()) return false;
    const slice = step.current(nodes.slice(i, end));
    i = end;
    // The entries are memoized per facts and last-seen labels: the full build finds them.
    buildInventory(slice, step.remember(slice), '');
    if (step.slots) for (const facts of slice) nodeSlots(facts);
  }
  if (step.finish) {
    await nextTurn();
    if (step.cancelled()) return false;
    step.finish();
  }
  await nextTurn();
  return !step.cancelled();
}
