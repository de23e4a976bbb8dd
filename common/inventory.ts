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

/**
 * One of `problems` as facts: a code and its values, all text (common/i18n/gpu-problem-text.ts words it
 * in any language; the English in `problems` is made from the same words, so the two cannot drift).
 */
export const GpuProblemWords = Type.Object({
  code: Type.String({ maxLength: 40 }),
  vars: Type.Record(Type.String(), Type.String()),
});
export type GpuProblemWords = Static<typeof GpuProblemWords>;

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
  /**
   * The real cause when another tool's GPU health signal names one (common/gpu-why.ts `gpuCause`:
   * NVSentinel, Node Problem Detector, the EKS node monitoring agent), in its words; absent otherwise.
   */
  gpu_cause: Type.Optional(Nullable(Type.String())),
  cordoned: Type.Optional(Type.Boolean()),
  capacity_gpus: Type.Optional(NullableInt),
  allocatable_gpus: Type.Optional(NullableInt),
  resources: Type.Optional(Type.Array(GpuResource)),
  mig: Type.Optional(Type.Union([MigInfo, Type.Null()])),
  sharing: Type.Optional(Type.Union([SharingInfo, Type.Null()])),
  last_seen: Type.Optional(Type.Union([LastSeenLabels, Type.Null()])),
  /** Human-readable problems with the node's GPU facts (malformed labels, capacity above allocatable…). */
  problems: Type.Optional(Type.Array(Type.String())),
  /** `problems` as facts, one per sentence in the same order (absent when there are none). */
  problem_words: Type.Optional(Type.Array(GpuProblemWords)),
});
export type GpuNodeEntry = Static<typeof GpuNodeEntry>;

/** One product's free GPUs in a written GpuInventory (the summary of common/free-gpus.ts ProductFree). */
export const FreeGpuProduct = Type.Object({
  label: Type.String(),
  product: Nullable(Type.String()),
  /** whole, mig, shared or device. */
  kind: Type.String(),
  profile: Nullable(Type.String()),
  nodes: Type.Integer({ minimum: 0 }),
  capacity: Type.Integer({ minimum: 0 }),
  allocatable: Type.Integer({ minimum: 0 }),
  in_use: Type.Integer({ minimum: 0 }),
  free: Type.Integer({ minimum: 0 }),
  max_free_on_one_node: Type.Integer({ minimum: 0 }),
});
export type FreeGpuProduct = Static<typeof FreeGpuProduct>;

/** Free GPUs per product, as the in-cluster controller writes them (issue 23). */
export const FreeGpusSummary = Type.Object(
  {
    /** unknown: the pods could not be listed (then free_total is null and products empty), never 0. */
    state: Type.Union([Type.Literal('known'), Type.Literal('unknown')]),
    reason: Nullable(Type.String()),
    free_total: NullableInt,
    products: Type.Array(FreeGpuProduct, { maxItems: 64, 'x-kubernetes-list-type': 'atomic' }),
    /** GPU pods the scheduler has not placed. */
    pending: Type.Integer({ minimum: 0 }),
  },
  {
    description:
      'Free GPUs per product: free = allocatable minus what live pods request, on Ready uncordoned nodes. Unknown (never 0) when the controller cannot list pods.',
  },
);
export type FreeGpusSummary = Static<typeof FreeGpusSummary>;

export const GpuInventoryStatus = Type.Object({
  /** RFC 3339 time the inventory last changed meaningfully. */
  observed_at: Type.String(),
  total_gpu_nodes: Type.Integer({ minimum: 0 }),
  ready_gpu_nodes: Type.Integer({ minimum: 0 }),
  /** Sum of `count` over GPU nodes. */
  total_gpus: Type.Integer({ minimum: 0 }),
  // Atomic: one managedFields entry for the whole list. A `map` list would track every entry's fields
  // (~94 KB of managedFields per 1,000 entries, shared/real-api/13), against etcd's 1.5 MiB object limit.
  nodes: Type.Array(GpuNodeEntry, {
    'x-kubernetes-list-type': 'atomic',
    description:
      'The GPU nodes. At thousands of nodes the list is made to fit the API server size limits: see nodes_compacted and nodes_omitted; the totals always count every GPU node.',
  }),
  /** Written back only: true when the entries carry only the six basic fields (the full list was too large). */
  nodes_compacted: Type.Optional(
    Type.Boolean({
      description:
        'True when the entries carry only name, ready, product, count, memory and workload, because the full entries would exceed the API server size limits.',
    }),
  ),
  /** Written by the in-cluster controller: free GPUs per product (absent from the app's own inventories). */
  free_gpus: Type.Optional(FreeGpusSummary),
  /**
   * Written by the in-cluster controller: the Lease (`namespace/name`) whose leader writes this status, so
   * the controller of another install (another namespace) sees it is not the writer and says so instead
   * of writing over it.
   */
  writer: Type.Optional(
    Type.String({
      maxLength: 317,
      description: 'The Lease (namespace/name) of the in-cluster controller whose leader writes this status.',
    }),
  ),
  /** Written back only: GPU nodes counted in the totals but left out of `nodes` (NotReady nodes are kept first). */
  nodes_omitted: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        'GPU nodes counted in the totals but not listed in nodes, because listing them would exceed the API server size limits (NotReady nodes are listed first).',
    }),
  ),
});
export type GpuInventoryStatus = Static<typeof GpuInventoryStatus>;
