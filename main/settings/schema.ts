/**
 * The settings document (version 2): one TypeBox schema gives the type, the validation and the
 * defaults. Closed objects everywhere (`additionalProperties: false`) so nothing but what is listed
 * here (context NAMES, never tokens or keys) can be stored.
 */
import { type Static, type TProperties, Type } from '@sinclair/typebox';
import {
  type AlertRules,
  DEFAULT_ALERT_RULES,
  GPU_HOT_C_MAX,
  GPU_HOT_C_MIN,
} from '../../common/alert-rules.ts';
import { ALERT_GPUS_MAX, type AlertKind, type AlertWords } from '../../common/alerts.ts';
import { LanguageSettingSchema } from '../../common/i18n/language-schema.ts';
import { GpuInventoryStatus } from '../../common/inventory.ts';
import { ApiGroupNameSchema, NamespaceNameSchema } from '../../common/k8s-names.ts';
// The defaults come from common/: settings sit below alerts and write-back and import neither.
import {
  DEFAULT_CONFIGMAP_NAMESPACE,
  DEFAULT_CRD_GROUP,
  INVENTORY_SOURCES,
  type InventorySource,
} from '../../common/settings.ts';
import { DEFAULT_TELEMETRY } from '../../common/telemetry.ts';
import { TelemetrySettingsSchema } from '../../common/telemetry-schema.ts';
import { DEFAULT_TIMELINE } from '../../common/timeline.ts';
import { TimelineSettingsSchema } from '../../common/timeline-schema.ts';

export const SETTINGS_VERSION = 2;
export { DEFAULT_CONFIGMAP_NAMESPACE, DEFAULT_CRD_GROUP };

const closed = { additionalProperties: false } as const;
const ContextName = Type.String({ minLength: 1, maxLength: 253 });
const Int0 = Type.Integer({ minimum: 0 });
const Namespace = NamespaceNameSchema;
const SourceSchema = Type.Union(INVENTORY_SOURCES.map((s) => Type.Literal(s)));

export const AlertRulesSchema = Type.Object(
  {
    holdDownMs: Int0,
    unreachableAfterMs: Int0,
    flapThreshold: Type.Integer({ minimum: 1 }),
    flapWindowMs: Int0,
    withdrawnGpus: Type.Boolean(),
    gpuHotC: Type.Integer({ minimum: GPU_HOT_C_MIN, maximum: GPU_HOT_C_MAX }),
    noFreeGpu: Type.Boolean(),
  },
  closed,
);

const ALERT_KINDS = [
  'ready-drop',
  'recovered',
  'unreachable',
  'reachable',
  'flapping',
  'gpus-withdrawn',
  'gpu-xid',
  'gpu-gone',
  'gpu-hot',
  'no-free-gpu',
  'free-gpu-back',
] as const;

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
    },
    closed,
  ),
  Type.Object(
    {
      kind: Type.Literal('free-gpu-back'),
      product: Type.String({ maxLength: 300 }),
      afterMs: Type.Number({ minimum: 0 }),
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

export const WindowBounds = Type.Object(
  {
    x: Type.Integer(),
    y: Type.Integer(),
    width: Type.Integer({ minimum: 1 }),
    height: Type.Integer({ minimum: 1 }),
    maximized: Type.Boolean(),
  },
  closed,
);

/** The inventory last seen per context and when; shown, marked stale, at launch while connecting. */
export const LastKnown = Type.Object({ at: Type.String(), inventory: GpuInventoryStatus }, closed);

export const TelemetrySettings = TelemetrySettingsSchema;

export const SettingsSchema = Type.Object(
  {
    version: Type.Literal(SETTINGS_VERSION),
    contexts: Type.Array(ContextName, { uniqueItems: true }),
    alertRules: AlertRulesSchema,
    writeBack: Type.Record(ContextName, Type.Boolean()),
    /**
     * Context name → the user allowed write-back to take over what another field manager owns there
     * (force-apply). Only an own `true` counts (takeOverOptedIn), and only where write-back is on. Added
     * within version 2: files without it get `{}` (migrate fills fields added within a version).
     */
    writeBackTakeOver: Type.Record(ContextName, Type.Boolean()),
    /**
     * Context name → where its inventory comes from (auto | nodes | controller); a context not listed is
     * auto. Added within version 2 (files without it get `{}`).
     */
    source: Type.Record(ContextName, SourceSchema),
    /** Context name → namespace of the in-cluster controller's Lease; not listed: gpu-fleet. Added within version 2. */
    controllerNamespace: Type.Record(ContextName, Namespace),
    /** Context name → false turns free GPUs (the pods watch) off there; not listed: on. Added within version 2. */
    freeGpus: Type.Record(ContextName, Type.Boolean()),
    crdGroup: ApiGroupNameSchema,
    configMapNamespace: NamespaceNameSchema,
    launchAtLogin: Type.Boolean(),
    theme: Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]),
    /** Added within version 2: files without it get 'auto' (follow the OS). */
    language: LanguageSettingSchema,
    window: Type.Union([WindowBounds, Type.Null()]),
    focusedContext: Type.Union([ContextName, Type.Null()]),
    lastKnown: Type.Record(ContextName, LastKnown),
    alertLog: Type.Array(LoggedAlert),
    /** Snoozed alerts: for all and per context; `until` epoch ms, null = until resumed. */
    alertsPaused: SnoozeSchema,
    /**
     * DCGM telemetry in the background (issue 17): 'auto' scrapes while a context has at most
     * `autoMaxGpuNodes` GPU nodes; `budgetPerMinute` caps the scrapes per context. Added within version 2
     * (migrate fills it in).
     */
    telemetry: TelemetrySettings,
    /**
     * Contexts that reach the same cluster (same server and CA) are watched once and shown as one card
     * (true), or each on its own (false). Added within version 2: files without it get true.
     */
    mergeSameCluster: Type.Boolean(),
    /** The timeline database (issue 24): retention, size cap, price per kWh. Added within version 2. */
    timeline: TimelineSettingsSchema,
  },
  closed,
);
export type Settings = Static<typeof SettingsSchema>;

export function defaultSettings(): Settings {
  return {
    version: SETTINGS_VERSION,
    contexts: [],
    alertRules: { ...DEFAULT_ALERT_RULES },
    writeBack: {},
    writeBackTakeOver: {},
    source: {},
    controllerNamespace: {},
    freeGpus: {},
    crdGroup: DEFAULT_CRD_GROUP,
    configMapNamespace: DEFAULT_CONFIGMAP_NAMESPACE,
    launchAtLogin: false,
    theme: 'system',
    language: 'auto',
    window: null,
    focusedContext: null,
    lastKnown: {},
    alertLog: [],
    alertsPaused: { all: null, contexts: {} },
    telemetry: { ...DEFAULT_TELEMETRY },
    mergeSameCluster: true,
    timeline: { ...DEFAULT_TIMELINE },
  };
}

// The schema restates shapes owned elsewhere; these fail to compile if they drift apart. (The checks
// against alerts/ types, a layer above, are in fleet/settings-shapes.ts.)
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const rulesMatch: Same<Static<typeof AlertRulesSchema>, AlertRules> = true;
const kindsMatch: Same<(typeof ALERT_KINDS)[number], AlertKind> = true;
const sourcesMatch: Same<Static<typeof SourceSchema>, InventorySource> = true;
const wordsMatch: Same<Static<typeof AlertWordsSchema>, AlertWords> = true;
void [rulesMatch, kindsMatch, sourcesMatch, wordsMatch];
