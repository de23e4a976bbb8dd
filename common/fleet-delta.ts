/**
 * What changed between two fleet snapshots, small enough to push to a window for every change: per
 * context only its changed fields, and in its inventory only the changed, added and removed node entries
 * (whole entries, keyed by name). `applyDelta(a, diffSnapshots(a, b))` equals `b` (a property test holds
 * it to that) and shares every object the delta does not change, so `$state.raw` consumers and keyed
 * lists redraw only what changed. Pure; `applyDelta` throws `DeltaMismatch` (list-delta.ts) for a delta
 * made from another snapshot.
 *
 * Order: the engine lists a context's nodes in byte order of their names (main/inventory/aggregate.ts),
 * but a controller's GpuInventory keeps its own (NotReady nodes first when compacted), and contexts are in
 * the engine's monitor order. The delta carries no order while kept entries keep theirs (added ones carry
 * their index), and the whole name order when they moved, so `applyDelta` rebuilds the order of `b`
 * whatever it is (the proof is at `applyList` in list-delta.ts).
 *
 * Optional fields (a context's `telemetry`, `source`, `ignoredNodes`, `free`, `sameCluster`, `flapping`; an inventory's `nodes_compacted`,
 * `nodes_omitted`) are never null in a snapshot, so in a delta `null` says "absent now".
 */
import type { ContextSnapshot, FleetSnapshot, HistoryPoint } from './fleet.ts';
import type { GpuInventoryStatus, GpuNodeEntry } from './inventory.ts';
import { sameJson } from './json-same.ts';
import {
  applyList,
  DeltaMismatch,
  diffList,
  isEmptyList,
  type ListDelta,
  type ListOps,
} from './list-delta.ts';

export { DeltaMismatch };

const FLEET_FIELDS = ['focused', 'alertsPausedUntil', 'health', 'generatedAt'] as const;
const CONTEXT_FIELDS = ['server', 'connection', 'stale', 'writeback'] as const;
const CONTEXT_OPTIONAL = [
  'ignoredNodes',
  'telemetry',
  'source',
  'free',
  'alertsPausedUntil',
  'sameCluster',
  'flapping',
] as const;
const INVENTORY_FIELDS = ['observed_at', 'total_gpu_nodes', 'ready_gpu_nodes', 'total_gpus'] as const;
const INVENTORY_OPTIONAL = ['nodes_compacted', 'nodes_omitted', 'free_gpus', 'writer'] as const;

type FleetField = (typeof FLEET_FIELDS)[number];
type ContextField = (typeof CONTEXT_FIELDS)[number];
type ContextOptional = (typeof CONTEXT_OPTIONAL)[number];
type InventoryField = (typeof INVENTORY_FIELDS)[number];
type InventoryOptional = (typeof INVENTORY_OPTIONAL)[number];

// A field added to a snapshot type and not to the lists above would never reach the window: these fail
// to compile then.
const everyFleetField: [Exclude<keyof FleetSnapshot, FleetField | 'contexts'>] extends [never]
  ? true
  : never = true;
const everyContextField: [
  Exclude<keyof ContextSnapshot, ContextField | ContextOptional | 'context' | 'inventory' | 'history'>,
] extends [never]
  ? true
  : never = true;
const everyInventoryField: [
  Exclude<keyof GpuInventoryStatus, InventoryField | InventoryOptional | 'nodes'>,
] extends [never]
  ? true
  : never = true;
void [everyFleetField, everyContextField, everyInventoryField];

type Nulled<T, K extends keyof T> = { [P in K]?: NonNullable<T[P]> | null };

export type NodesDelta = ListDelta<GpuNodeEntry, GpuNodeEntry>;

/** An inventory's change: the whole inventory (it was null before), or its changed fields and nodes. */
export type InventoryDelta =
  | { all: GpuInventoryStatus }
  | (Partial<Pick<GpuInventoryStatus, InventoryField>> &
      Nulled<GpuInventoryStatus, InventoryOptional> & { nodes?: NodesDelta });

/** New history points after the previous ones (checked to be a prefix), or the whole history (thinned). */
export type HistoryDelta = { append: HistoryPoint[] } | { all: HistoryPoint[] };

export type ContextDelta = { context: string } & Partial<Pick<ContextSnapshot, ContextField>> &
  Nulled<ContextSnapshot, ContextOptional> & {
    /** null: the context has no inventory any more. */
    inventory?: InventoryDelta | null;
    history?: HistoryDelta;
  };

export type ContextsDelta = ListDelta<ContextSnapshot, ContextDelta> | { all: ContextSnapshot[] };

export type FleetDelta = Partial<Pick<FleetSnapshot, FleetField>> & { contexts?: ContextsDelta };

type Loose = Record<string, unknown>;

/** Copies the fields of `next` that differ from `prev` into `out`; an optional field gone is `null`. */
function diffFields(
  prev: object,
  next: object,
  required: readonly string[],
  optional: readonly string[],
  out: Loose,
): boolean {
  const p = prev as Loose;
  const n = next as Loose;
  let any = false;
  for (const k of required) {
    if (!sameJson(p[k], n[k])) {
      out[k] = n[k];
      any = true;
    }
  }
  for (const k of optional) {
    if (n[k] === undefined) {
      if (p[k] === undefined) continue;
      out[k] = null;
      any = true;
    } else if (!sameJson(p[k], n[k])) {
      out[k] = n[k];
      any = true;
    }
  }
  return any;
}

function applyFields(
  target: Loose,
  delta: object,
  required: readonly string[],
  optional: readonly string[],
): void {
  const d = delta as Loose;
  for (const k of required) if (Object.hasOwn(d, k)) target[k] = d[k];
  for (const k of optional) {
    if (!Object.hasOwn(d, k)) continue;
    if (d[k] === null) delete target[k];
    else target[k] = d[k];
  }
}

const NODE_OPS: ListOps<GpuNodeEntry, GpuNodeEntry> = {
  key: (n) => n.name,
  changeKey: (n) => n.name,
  diff: (a, b) => (a === b || sameJson(a, b) ? null : b),
  apply: (_, b) => b,
};

/** undefined when nothing changed. */
function diffInventory(
  prev: GpuInventoryStatus | null,
  next: GpuInventoryStatus | null,
): InventoryDelta | null | undefined {
  if (prev === next) return undefined;
  if (next === null) return null;
  if (prev === null) return { all: next };
  const out: Loose = {};
  let any = diffFields(prev, next, INVENTORY_FIELDS, INVENTORY_OPTIONAL, out);
  if (prev.nodes !== next.nodes) {
    const nodes = diffList(prev.nodes, next.nodes, NODE_OPS);
    // Repeated names (never from the engine's node cache; possible in a controller's GpuInventory).
    if (nodes === null) {
      if (!sameJson(prev.nodes, next.nodes)) return { all: next };
    } else if (!isEmptyList(nodes)) {
      out.nodes = nodes;
      any = true;
    }
  }
  return any ? (out as InventoryDelta) : undefined;
}

function applyInventory(
  prev: GpuInventoryStatus | null,
  delta: InventoryDelta | null,
): GpuInventoryStatus | null {
  if (delta === null) return null;
  if ('all' in delta) return delta.all;
  if (prev === null) throw new DeltaMismatch('an inventory change for a context without one');
  const out = { ...prev } as Loose;
  applyFields(out, delta, INVENTORY_FIELDS, INVENTORY_OPTIONAL);
  if (delta.nodes) out.nodes = applyList(prev.nodes, delta.nodes, NODE_OPS);
  return out as GpuInventoryStatus;
}

function diffHistory(prev: readonly HistoryPoint[], next: readonly HistoryPoint[]): HistoryDelta | undefined {
  if (prev === next) return undefined;
  let prefix = next.length >= prev.length;
  for (let i = 0; prefix && i < prev.length; i++) {
    if (prev[i] !== next[i] && !sameJson(prev[i], next[i])) prefix = false;
  }
  if (!prefix) return { all: [...next] };
  return next.length === prev.length ? undefined : { append: next.slice(prev.length) };
}

function diffContext(prev: ContextSnapshot, next: ContextSnapshot): ContextDelta | null {
  if (prev === next) return null;
  const out: Loose = { context: next.context };
  let any = diffFields(prev, next, CONTEXT_FIELDS, CONTEXT_OPTIONAL, out);
  const inventory = diffInventory(prev.inventory, next.inventory);
  if (inventory !== undefined) {
    out.inventory = inventory;
    any = true;
  }
  const history = diffHistory(prev.history, next.history);
  if (history !== undefined) {
    out.history = history;
    any = true;
  }
  return any ? (out as ContextDelta) : null;
}

function applyContext(prev: ContextSnapshot, delta: ContextDelta): ContextSnapshot {
  const out = { ...prev } as Loose;
  applyFields(out, delta, CONTEXT_FIELDS, CONTEXT_OPTIONAL);
  if (delta.inventory !== undefined) out.inventory = applyInventory(prev.inventory, delta.inventory);
  if (delta.history) {
    out.history = 'all' in delta.history ? delta.history.all : [...prev.history, ...delta.history.append];
  }
  return out as unknown as ContextSnapshot;
}

const CONTEXT_OPS: ListOps<ContextSnapshot, ContextDelta> = {
  key: (c) => c.context,
  changeKey: (d) => d.context,
  diff: diffContext,
  apply: applyContext,
};

/** What changed from `prev` to `next`; `{}` when they are the same. */
export function diffSnapshots(prev: FleetSnapshot, next: FleetSnapshot): FleetDelta {
  const out: Loose = {};
  diffFields(prev, next, FLEET_FIELDS, [], out);
  if (prev.contexts !== next.contexts) {
    const contexts = diffList(prev.contexts, next.contexts, CONTEXT_OPS);
    if (contexts === null) {
      if (!sameJson(prev.contexts, next.contexts)) out.contexts = { all: next.contexts };
    } else if (!isEmptyList(contexts)) out.contexts = contexts;
  }
  return out as FleetDelta;
}

/** The snapshot `delta` was made to (see the file comment); unchanged contexts and entries are shared. */
export function applyDelta(snapshot: FleetSnapshot, delta: FleetDelta): FleetSnapshot {
  const out = { ...snapshot } as Loose;
  applyFields(out, delta, FLEET_FIELDS, []);
  const contexts = delta.contexts;
  if (contexts) {
    out.contexts = 'all' in contexts ? contexts.all : applyList(snapshot.contexts, contexts, CONTEXT_OPS);
  }
  return out as unknown as FleetSnapshot;
}

/** Nothing to tell a window: no change at all, or only the time the snapshot was made. */
export function isEmptyDelta(delta: FleetDelta): boolean {
  return Object.keys(delta).every((k) => k === 'generatedAt');
}
