/** The alert policy's inputs, outputs and state: plain JSON data, so hosts can log or persist it. */

import type { Alert, AlertProduct } from '../../common/alerts.ts';
import { dict } from '../../common/dict.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { entryReasonOf, type ShortReason } from '../../common/node-reason.ts';
import { sharePool } from '../inventory/share.ts';

/** What the engine saw of one context at one instant (epoch ms). */
export interface Observation {
  at: number;
  context: string;
  reachable: boolean;
  /** When unreachable this is the last known inventory; the policy ignores it then. */
  inventory: GpuInventoryStatus | null;
}

/**
 * An alert as the policy returns it. `suppressed` alerts were decided while snoozed: the host keeps
 * them in the alert log (nothing is lost silently) but shows no notification for them.
 */
export interface PolicyAlert extends Alert {
  suppressed?: boolean;
}

/** The few facts per node the policy needs, trimmed from the inventory. */
export interface NodeFacts {
  ready: boolean;
  /** Why it is not Ready (common/node-reason.ts), or null when Ready. */
  why: ShortReason | null;
  /** The real cause another tool's GPU health signal names (the entry's `gpu_cause`), or null. */
  cause: string | null;
  capacity: number | null;
  allocatable: number | null;
}

export interface InventoryView {
  readyCount: number;
  nodes: Record<string, NodeFacts>;
  /**
   * GPU nodes counted but not listed (the in-cluster controller's `nodes_omitted`, when its list had to
   * fit the API server's limits). Absent or 0: every GPU node is listed.
   */
  omitted?: number;
  /** GPU nodes in the cluster (total_gpu_nodes). */
  total?: number;
  /**
   * Set by fillOmitted when every omitted node is Ready and the view holds every node known: a node
   * absent from it left the cluster.
   */
  complete?: boolean;
}

export interface ContextPolicy {
  reachable: boolean;
  /** Start of the current unreachable spell. */
  unreachableSince: number | null;
  unreachableAlerted: boolean;
  /** The last inventory seen while reachable; null until the first one. */
  last: InventoryView | null;
  /** The nodes the policy counts as Ready: what the user was last told, or saw at start. */
  accepted: string[];
  /** A drop seen but not yet held for the hold-down. */
  pending: { since: number } | null;
  /** An alerted drop not yet recovered: the nodes alerted, the count before it began, the count at the last alert. */
  down: { nodes: string[]; baseline: number; low: number } | null;
  /** Readiness changes per node within the flap window (epoch ms). */
  changes: Record<string, number[]>;
  /** Nodes declared flapping, with when they last changed. */
  flapping: Record<string, number>;
  /** Nodes with GPUs withdrawn, by the allocatable count already alerted. */
  withdrawn: Record<string, number>;
  /** The products watched for the optional no-free-GPU alert (no-free.ts). */
  noFree: NoFreeState;
}

/** One product of a cluster as the no-free-GPU alert follows it (its ProductFree key is the record's key). */
export interface ProductWatch {
  label: string;
  /** The product's facts, for the alert's words in each language. */
  item: AlertProduct;
  /** Free GPUs of it on the nodes a pod can be placed on now, at the last known figures. */
  free: number;
  allocatable: number;
  /** The cluster's Pending GPU pods at the last known figures (for the alert's words). */
  pending: number;
  /** Start of the current spell of none free that counts for the hold-down; null when free or unknown since. */
  since: number | null;
  /** None free when first seen: taken as the state the user knows, not alerted until one frees up. */
  accepted: boolean;
  /** Alerted: when that spell of none free began (the recovery says how long it lasted); null otherwise. */
  alertedSince: number | null;
  /** Changes between none free and some free within the flap window (epoch ms). */
  changes: number[];
  /** When it last changed while flapping (damped: no alerts until stable for a window); null otherwise. */
  flapping: number | null;
}

export interface NoFreeState {
  /** The last figures were known and fresh; while not, nothing is judged (pods forbidden, listing, stale). */
  known: boolean;
  products: Record<string, ProductWatch>;
}

export interface PolicyState {
  contexts: Record<string, ContextPolicy>;
}

export const INITIAL_POLICY_STATE: PolicyState = Object.freeze({
  contexts: Object.freeze(dict<ContextPolicy>()),
});

export function initialContextPolicy(): ContextPolicy {
  return {
    reachable: true,
    unreachableSince: null,
    unreachableAlerted: false,
    last: null,
    accepted: [],
    pending: null,
    down: null,
    changes: dict(),
    flapping: dict(),
    withdrawn: dict(),
    noFree: { known: false, products: dict() },
  };
}

const readyFacts = sharePool<NodeFacts>();

export function viewOf(inventory: GpuInventoryStatus): InventoryView {
  const nodes = dict<NodeFacts>();
  for (const n of inventory.nodes) {
    const facts: NodeFacts = {
      ready: n.ready,
      why: n.ready ? null : entryReasonOf(n),
      cause: n.ready ? null : (n.gpu_cause ?? null),
      capacity: n.capacity_gpus ?? null,
      allocatable: n.allocatable_gpus ?? null,
    };
    // A Ready node's facts are two numbers: one frozen copy per pair (the policy keeps one per node).
    nodes[n.name] = n.ready
      ? readyFacts.share(`${facts.capacity ?? '-'}/${facts.allocatable ?? '-'}`, facts)
      : facts;
  }
  const omitted = inventory.nodes_omitted ?? 0;
  return {
    readyCount: inventory.ready_gpu_nodes,
    total: inventory.total_gpu_nodes,
    nodes,
    ...(omitted > 0 ? { omitted } : {}),
  };
}
