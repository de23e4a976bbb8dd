/**
 * What the settings file keeps of alerts (the alert log) and their pauses, as schemas: written by the
 * engine from gated cluster data, read back at launch. Part of the settings document (common/settings.ts).
 */
import { type Static, type TProperties, Type } from '@sinclair/typebox';
import { ALERT_GPUS_MAX, ALERT_KINDS, type AlertWords } from './alerts.ts';
import { ContextNameSchema as ContextName } from './k8s-names.ts';

const closed = { additionalProperties: false } as const;

/** A free-GPU product's facts (alerts.ts AlertProduct): a product label, a slot kind, a MIG profile. */
const alertProduct = Type.Object(
  {
    product: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
    kind: Type.Union([
      Type.Literal('whole'),
      Type.Literal('mig'),
      Type.Literal('shared'),
      Type.Literal('device'),
    ]),
    profile: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
  },
  closed,
);

/** The facts an alert's words were made of (common/alerts.ts AlertWords), so the window can word them. */
const nodeList = Type.Array(Type.String({ maxLength: 253 }), { maxItems: 10_000 });
/** Why a node is not Ready, as facts (common/node-reason.ts ShortReason); the cluster's words capped. */
const clusterWords = Type.String({ maxLength: 400 });
const ShortReasonSchema = Type.Union([
  Type.Object({ code: Type.Literal('ready') }, closed),
  Type.Object({ code: Type.Literal('noCondition') }, closed),
  Type.Object({ code: Type.Literal('kubeletStopped') }, closed),
  Type.Object({ code: Type.Literal('clause'), clause: clusterWords }, closed),
  Type.Object({ code: Type.Literal('unknown'), reason: clusterWords }, closed),
  Type.Object(
    {
      code: Type.Literal('notReady'),
      status: Type.Union([clusterWords, Type.Null()]),
      detail: clusterWords,
    },
    closed,
  ),
]);

/** A GPU an alert names (DCGM label values are at most 1024 characters, main/telemetry/prom-text.ts). */
const GpuRefSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    uuid: Type.Union([Type.String({ maxLength: 1024 }), Type.Null()]),
    model: Type.Union([Type.String({ maxLength: 1024 }), Type.Null()]),
  },
  closed,
);
/** GPUs of one alert, each with one more fact (its XID, its temperature). */
const gpuList = <P extends TProperties>(more: P) =>
  Type.Array(Type.Object({ gpu: GpuRefSchema, ...more }, closed), { maxItems: ALERT_GPUS_MAX });
export const AlertWordsSchema = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('ready-drop'),
      left: nodeList,
      why: Type.Optional(Type.Array(Type.Union([ShortReasonSchema, Type.Null()]), { maxItems: 10_000 })),
      cause: Type.Optional(
        Type.Array(Type.Union([Type.String({ maxLength: 200 }), Type.Null()]), { maxItems: 10_000 }),
      ),
    },
    closed,
  ),
  Type.Object({ kind: Type.Literal('recovered') }, closed),
  Type.Object(
    {
      kind: Type.Literal('unreachable'),
      forMs: Type.Number({ minimum: 0 }),
      total: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    },
    closed,
  ),
  Type.Object({ kind: Type.Literal('reachable'), afterMs: Type.Number({ minimum: 0 }) }, closed),
  Type.Object(
    {
      kind: Type.Literal('flapping'),
      threshold: Type.Integer({ minimum: 0 }),
      windowMs: Type.Number({ minimum: 0 }),
    },
    closed,
  ),
  Type.Object(
    {
      kind: Type.Literal('gpus-withdrawn'),
      lines: Type.Array(
        Type.Object(
          { node: Type.String({ maxLength: 253 }), allocatable: Type.Integer(), capacity: Type.Integer() },
          closed,
        ),
        { maxItems: 10_000 },
      ),
    },
    closed,
  ),
  Type.Object(
    { kind: Type.Literal('gpu-xid'), hits: gpuList({ xid: Type.Integer({ minimum: 0 }) }) },
    closed,
  ),
  Type.Object(
    { kind: Type.Literal('gpu-gone'), gone: Type.Array(GpuRefSchema, { maxItems: ALERT_GPUS_MAX }) },
    closed,
  ),
  Type.Object(
    {
      kind: Type.Literal('gpu-hot'),
      hot: gpuList({ temp: Type.Number() }),
      thresholdC: Type.Number(),
      forMs: Type.Number({ minimum: 0 }),
    },
    closed,
  ),
  /** A product label is made of the cluster's labels (63 characters each) and our words. */
  Type.Object(
    {
      kind: Type.Literal('no-free-gpu'),
      product: Type.String({ maxLength: 300 }),
      allocatable: Type.Integer({ minimum: 0 }),
      pending: Type.Integer({ minimum: 0 }),
      forMs: Type.Number({ minimum: 0 }),
      item: Type.Optional(alertProduct),
    },
    closed,
  ),
  Type.Object(
    {
      kind: Type.Literal('free-gpu-back'),
      product: Type.String({ maxLength: 300 }),
      afterMs: Type.Number({ minimum: 0 }),
      item: Type.Optional(alertProduct),
    },
    closed,
  ),
]);

export const LoggedAlert = Type.Object(
  {
    id: Type.String(),
    at: Type.String(),
    context: ContextName,
    kind: Type.Union(ALERT_KINDS.map((k) => Type.Literal(k))),
    title: Type.String(),
    body: Type.String(),
    nodes: Type.Array(Type.String()),
    before: Type.Union([Type.Integer(), Type.Null()]),
    after: Type.Union([Type.Integer(), Type.Null()]),
    reasons: Type.Optional(
      Type.Array(
        Type.Object(
          { node: Type.String({ maxLength: 253 }), reason: Type.String({ maxLength: 300 }) },
          closed,
        ),
        { maxItems: 10_000 },
      ),
    ),
    short: Type.Optional(Type.String({ maxLength: 400 })),
    /** Added within version 2: alerts logged before it have none and are shown as logged. */
    words: Type.Optional(AlertWordsSchema),
    suppressed: Type.Optional(Type.Boolean()),
  },
  closed,
);

const Snooze = Type.Object({ until: Type.Union([Type.Number(), Type.Null()]) }, closed);
export const SnoozeSchema = Type.Object(
  { all: Type.Union([Snooze, Type.Null()]), contexts: Type.Record(ContextName, Snooze) },
  closed,
);

// AlertWordsSchema restates the AlertWords type of common/alerts.ts (which keeps the comments on each
// kind's facts); this fails to compile if the two drift apart. The checks against alerts/ types, a layer
// above, are in fleet/settings-shapes.ts.
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const wordsMatch: Same<Static<typeof AlertWordsSchema>, AlertWords> = true;
void wordsMatch;
