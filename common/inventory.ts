/**
 * The GPU inventory of one cluster: the `GpuInventory` status schema of SPEC.md.
 * One TypeBox definition gives both the TypeScript types and the OpenAPI v3 schema of the CRD,
 * so the status we compute, print, send to the window and write into the cluster cannot drift apart.
 * Field names are snake_case for compatibility with resources written by the earlier Rust operator.
 */
import { type Static, Type } from '@sinclair/typebox';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

export const NodeReadiness = Type.Union([
  Type.Literal('True'),
  Type.Literal('False'),
  Type.Literal('Unknown'),
]);
export type NodeReadiness = Static<typeof NodeReadiness>;

/** What a node's GPU labels said the last time the engine saw them (labels vanish when a node dies). */
export const LastSeenLabels = Type.Object({
  product: Nullable(Type.String()),
  count: Type.Integer(),
  memory: NullableInt,
});
export type LastSeenLabels = Static<typeof LastSeenLabels>;

/** One `nvidia.com/*` extended resource of the node: capacity and what the device plugin still offers. */
export const GpuResource = Type.Object({
  name: Type.String(),
  capacity: Type.Integer(),
  allocatable: Type.Integer(),
});
export type GpuResource = Static<typeof GpuResource>;

export const MigInfo = Type.Object({
  strategy: Nullable(Type.String()),
  profiles: Type.Array(Type.Object({ profile: Type.String(), count: Type.Integer() })),
});
export type MigInfo = Static<typeof MigInfo>;

export const SharingInfo = Type.Object({
  strategy: Nullable(Type.String()),
  replicas: NullableInt,
});
export type SharingInfo = Static<typeof SharingInfo>;

export const GpuNodeEntry = Type.Object({
  // The six fields of SPEC.md; their meaning never changes.
  name: Type.String(),
  ready: Type.Boolean(),
  /** `nvidia.com/gpu.product`, or null when the node carries no product label (`<unlabeled>`). */
  product: Nullable(Type.String()),
  /** `nvidia.com/gpu.count`; 0 when unlabeled or malformed. */
  count: Type.Integer({ minimum: 0 }),
  /** `nvidia.com/gpu.memory`, MiB per GPU. */
  memory: NullableInt,
  /** `nvidia.com/gpu.workload.config`: container, vm-passthrough, vm-vgpu. */
  workload: Nullable(Type.String()),
  // Extras (optional, additive).
  readiness: Type.Optional(NodeReadiness),
  not_ready_reason: Type.Optional(Nullable(Type.String())),
  not_ready_since: Type.Optional(Nullable(Type.String())),
  /** The Ready condition's message while not Ready (one line, at most 200 characters), else null. */
  not_ready_message: Type.Optional(Nullable(Type.String())),
  cordoned: Type.Optional(Type.Boolean()),
  capacity_gpus: Type.Optional(NullableInt),
  allocatable_gpus: Type.Optional(NullableInt),
  resources: Type.Optional(Type.Array(GpuResource)),
  mig: Type.Optional(Type.Union([MigInfo, Type.Null()])),
  sharing: Type.Optional(Type.Union([SharingInfo, Type.Null()])),
  last_seen: Type.Optional(Type.Union([LastSeenLabels, Type.Null()])),
  /** Human-readable problems with the node's GPU facts (malformed labels, capacity above allocatable…). */
  problems: Type.Optional(Type.Array(Type.String())),
});
export type GpuNodeEntry = Static<typeof GpuNodeEntry>;

export const GpuInventoryStatus = Type.Object({
  /** RFC 3339 time the inventory last changed meaningfully. */
  observed_at: Type.String(),
  total_gpu_nodes: Type.Integer({ minimum: 0 }),
  ready_gpu_nodes: Type.Integer({ minimum: 0 }),
  /** Sum of `count` over GPU nodes. */
  total_gpus: Type.Integer({ minimum: 0 }),
  nodes: Type.Array(GpuNodeEntry),
});
export type GpuInventoryStatus = Static<typeof GpuInventoryStatus>;
