/**
 * Pure: what changed between the node states last recorded for a cluster and its inventory now —
 * readiness transitions, GPUs offered (allocatable/capacity) and the GPU count label — as NodeChange
 * rows, and the node states to keep for the next comparison. A cluster seen for the first time records
 * its states, and changes only for the nodes that are already down: its nodes did not "appear" (the
 * timeline just started looking), but an outage under way is what happened, and History must not say
 * "nothing happened" while every GPU node is NotReady. That outage is dated by the Ready condition's
 * last transition (`not_ready_since`) where the cluster says it, else from the first look.
 */
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import type { NodeChange } from '../../common/timeline.ts';

export interface NodeState {
  ready: string;
  gpus: string;
  labels: string;
}

export const ABSENT = 'absent';

export function readinessOf(n: GpuNodeEntry): string {
  const r = n.readiness ?? (n.ready ? 'True' : 'False');
  return r === 'True' ? 'Ready' : r === 'False' ? 'NotReady' : 'Unknown';
}

export function stateOf(n: GpuNodeEntry): NodeState {
  const count = (v: number | null | undefined) => (v === null || v === undefined ? '-' : String(v));
  return {
    ready: readinessOf(n),
    gpus: `${count(n.allocatable_gpus)}/${count(n.capacity_gpus)}`,
    labels: n.product === null && n.count === 0 ? 'gone' : String(n.count),
  };
}

export interface Diff {
  changes: NodeChange[];
  /** Node states to store (new or changed). */
  put: Map<string, NodeState>;
  /** Nodes no longer in the inventory. */
  removed: string[];
}

/**
 * `seen`: the node list of the inventory compared last; an entry that is the same object at the same
 * place again (the engine shares unchanged entries between inventories) is skipped without building its
 * state. Removals are looked for only when the counts say some node may be gone.
 */
export function diffInventory(
  before: ReadonlyMap<string, NodeState>,
  inv: GpuInventoryStatus,
  at: number,
  seen?: readonly GpuNodeEntry[],
  /** The earliest time a row may carry: a first-look outage dated before the retention would be pruned at once. */
  earliest = Number.NEGATIVE_INFINITY,
): Diff {
  const first = before.size === 0;
  const changes: NodeChange[] = [];
  const put = new Map<string, NodeState>();
  let known = 0;
  for (const [i, n] of inv.nodes.entries()) {
    if (seen?.[i] === n && before.has(n.name)) {
      known++;
      continue;
    }
    const now = stateOf(n);
    const was = before.get(n.name);
    if (was) known++;
    if (was && was.ready === now.ready && was.gpus === now.gpus && was.labels === now.labels) continue;
    put.set(n.name, now);
    const reason = now.ready === 'Ready' ? null : (n.not_ready_reason ?? null);
    const message = now.ready === 'Ready' ? null : (n.not_ready_message ?? null);
    if (first) {
      if (now.ready !== 'Ready')
        changes.push({
          node: n.name,
          at: Math.max(earliest, downSince(n, at)),
          kind: 'ready',
          from: 'Ready',
          to: now.ready,
          reason,
          message,
        });
      continue;
    }
    const base = { node: n.name, at };
    if (!was || was.ready !== now.ready)
      changes.push({ ...base, kind: 'ready', from: was?.ready ?? ABSENT, to: now.ready, reason, message });
    if (was && was.gpus !== now.gpus)
      changes.push({ ...base, kind: 'gpus', from: was.gpus, to: now.gpus, reason: null, message: null });
    if (was && was.labels !== now.labels)
      changes.push({
        ...base,
        kind: 'labels',
        from: was.labels,
        to: now.labels,
        reason: null,
        message: null,
      });
  }
  const removed: string[] = [];
  // A controller's inventory made to fit the API server may leave nodes out: absence proves nothing then.
  // Every node known before is still listed (names are unique): nothing left.
  if ((inv.nodes_omitted ?? 0) > 0 || known === before.size) return { changes, put, removed };
  const present = new Set(inv.nodes.map((n) => n.name));
  for (const [name, was] of before) {
    if (present.has(name)) continue;
    removed.push(name);
    // A node that left with its GPUs (deleted, or no longer a GPU node).
    changes.push({ node: name, at, kind: 'ready', from: was.ready, to: ABSENT, reason: null, message: null });
  }
  return { changes, put, removed };
}

/** When a node already down at the first look went down: its Ready condition's transition, if earlier. */
function downSince(n: GpuNodeEntry, at: number): number {
  const since = n.not_ready_since ? Date.parse(n.not_ready_since) : Number.NaN;
  return Number.isFinite(since) && since <= at ? since : at;
}
