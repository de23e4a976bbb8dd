/**
 * The settings shape, in one place: one TypeBox schema per field, from which come the settings document
 * (the file, version 2, and its type `Settings`), the view the window gets (`SettingsViewSchema`), the
 * patch it sends (`SettingsPatchSchema`, checked at the IPC door) and the settings form's validation
 * (renderer/lib/settings-form.ts words `Value.Errors` of the patch). A field the user sets is added to
 * `USER_FIELDS` once (and its default to `defaultSettings`): it is then in the file, the view and the
 * patch, and checked in the form once the form has a field for it. A field only the engine writes goes
 * in `SettingsSchema` alone.
 * Closed objects everywhere (`additionalProperties: false`) so nothing but what is listed here (context
 * NAMES, never tokens or keys) can be stored or sent.
 */
import { type Static, Type } from '@sinclair/typebox';
import { LoggedAlert, SnoozeSchema } from './alert-log-schema.ts';
import { AlertRulesSchema, AlertRulesViewSchema, DEFAULT_ALERT_RULES } from './alert-rules.ts';
import { FORWARD_TARGETS_MAX, ForwardTargetSettingSchema } from './forwarding.ts';
import { LanguageSettingSchema } from './i18n/language-schema.ts';
import { GpuInventoryStatus } from './inventory.ts';
import { ApiGroupNameSchema, ContextNameSchema, MAX_NODE_NAME, NamespaceNameSchema } from './k8s-names.ts';
import { DEFAULT_TELEMETRY, TelemetrySettingsSchema } from './telemetry.ts';
import { DEFAULT_TIMELINE, TimelineSettingsSchema } from './timeline.ts';

export const SETTINGS_VERSION = 2;

/** Our default API group for write-back (after the app id io.gpufleet.app); users of an earlier operator's CRD set theirs. */
export const DEFAULT_CRD_GROUP = 'gpufleet.io';

/**
 * Where the write-back ConfigMap goes unless the user chose another namespace: the one default of the
 * app, the CLI and the in-cluster controller (its manifests grant it this one ConfigMap there). kube-system
 * exists in every cluster, so write-back from a workstation works without creating a namespace first, and
 * it is where the earlier operator of the same shape kept `gpu-node-status`.
 */
export const DEFAULT_CONFIGMAP_NAMESPACE = 'kube-system';

/**
 * Where a context's inventory comes from: `nodes` (the app watches every Node itself), `controller` (only
 * the in-cluster controller's GpuInventory and Lease), `auto` (the controller while its Lease is fresh,
 * else nodes).
 */
export const INVENTORY_SOURCES = ['auto', 'nodes', 'controller'] as const;
export const InventorySourceSchema = Type.Union(INVENTORY_SOURCES.map((s) => Type.Literal(s)));
export type InventorySource = Static<typeof InventorySourceSchema>;
export const DEFAULT_INVENTORY_SOURCE: InventorySource = 'auto';
/** The namespace of the controller's Lease unless the user chose another for a context. */
export const DEFAULT_CONTROLLER_NAMESPACE = 'gpu-fleet';
/** The Lease the in-cluster controller holds (its leader election). */
export const CONTROLLER_LEASE_NAME = 'gpu-fleet-controller';

export const ThemeSchema = Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]);
export type Theme = Static<typeof ThemeSchema>;

/** At most this many contexts are monitored, or named in one per-context setting. */
export const CONTEXTS_MAX = 200;
const closed = { additionalProperties: false } as const;
/**
 * A record's keys are checked by pattern only (TypeBox ignores a key schema's minLength and maxLength), so
 * a per-context setting's keys are held to a context name's length by this pattern, and nothing else is taken.
 */
const ContextKey = Type.String({ pattern: `^[\\s\\S]{1,${MAX_NODE_NAME}}$` });
const perContext = <T extends Parameters<typeof Type.Record>[1]>(value: T) =>
  Type.Record(ContextKey, value, { additionalProperties: false, maxProperties: CONTEXTS_MAX });

/** The monitored contexts, by name, each once. */
export const ContextListSchema = Type.Array(ContextNameSchema, { uniqueItems: true, maxItems: CONTEXTS_MAX });

/**
 * What the user sets in the window: the same schema in the file, the view and the patch. (The monitored
 * contexts and the alert rules are user settings too, but are named and shaped apart: below.)
 */
const USER_FIELDS = {
  /** Context name → write the GpuInventory / ConfigMap back into that cluster. */
  writeBack: perContext(Type.Boolean()),
  /**
   * Context name → the user allowed write-back to take over what another field manager owns there
   * (force-apply). Only an own `true` counts (takeOverOptedIn), and only where write-back is on. Added
   * within version 2: files without it get `{}` (migrate fills fields added within a version).
   */
  writeBackTakeOver: perContext(Type.Boolean()),
  /** Context name → inventory source; a context not listed is auto. Added within version 2. */
  source: perContext(InventorySourceSchema),
  /** Context name → namespace of the controller's Lease; not listed: gpu-fleet. Added within version 2. */
  controllerNamespace: perContext(NamespaceNameSchema),
  /** Context name → false turns free GPUs (the pods watch) off there; not listed: on. Added within version 2. */
  freeGpus: perContext(Type.Boolean()),
  crdGroup: ApiGroupNameSchema,
  configMapNamespace: NamespaceNameSchema,
  launchAtLogin: Type.Boolean(),
  theme: ThemeSchema,
  /** The window's, tray's and notifications' language: 'auto' follows the OS (or the browser). Added within version 2. */
  language: LanguageSettingSchema,
  /**
   * DCGM telemetry in the background (issue 17): 'auto' scrapes while a context has at most
   * `autoMaxGpuNodes` GPU nodes; `budgetPerMinute` caps the scrapes per context. Added within version 2.
   */
  telemetry: TelemetrySettingsSchema,
  /**
   * Contexts that reach the same cluster (same server and CA) are watched once and shown as one card
   * (true), or each on its own (false). Added within version 2: files without it get true.
   */
  mergeSameCluster: Type.Boolean(),
  /** The timeline database (issue 24): retention, size cap, price per kWh. Added within version 2. */
  timeline: TimelineSettingsSchema,
};

/** The user-editable settings as the window shows and edits them (no credentials, ever). */
export const SettingsViewSchema = Type.Object(
  { monitoredContexts: ContextListSchema, alertRules: AlertRulesViewSchema, ...USER_FIELDS },
  closed,
);
export type SettingsView = Static<typeof SettingsViewSchema>;

/** A settings change from the window: every field of the view optional, each checked by its schema. */
export const SettingsPatchSchema = Type.Partial(SettingsViewSchema);
export type SettingsPatch = Static<typeof SettingsPatchSchema>;

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

/** The settings document as the file keeps it: the user's fields, then what the engine writes. */
export const SettingsSchema = Type.Object(
  {
    version: Type.Literal(SETTINGS_VERSION),
    /** The monitored contexts (the view's `monitoredContexts`). */
    contexts: ContextListSchema,
    alertRules: AlertRulesSchema,
    ...USER_FIELDS,
    window: Type.Union([WindowBounds, Type.Null()]),
    focusedContext: Type.Union([ContextNameSchema, Type.Null()]),
    lastKnown: Type.Record(ContextNameSchema, LastKnown),
    alertLog: Type.Array(LoggedAlert),
    /** Snoozed alerts: for all and per context; `until` epoch ms, null = until resumed. */
    alertsPaused: SnoozeSchema,
    /**
     * The desktop app's alert forwarding targets (issue 25), without their secrets (those are kept by
     * Electron main with safeStorage, main/electron/secret-vault.ts). Changed through forward:save and
     * forward:remove, not the settings patch. Added within version 2: files without it get [].
     */
    forwarding: Type.Array(ForwardTargetSettingSchema, { maxItems: FORWARD_TARGETS_MAX }),
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
    forwarding: [],
  };
}

/**
 * Whether write-back is on for a context: only an own `true` counts, so a context named `toString` or
 * `constructor` is never opted in by Object.prototype.
 */
export function writeBackOptedIn(writeBack: Readonly<Record<string, boolean>>, context: string): boolean {
  return Object.hasOwn(writeBack, context) && writeBack[context] === true;
}

/** Whether the user allowed write-back to take over another manager's fields in a context: an own `true`. */
export function takeOverOptedIn(takeOver: Readonly<Record<string, boolean>>, context: string): boolean {
  return Object.hasOwn(takeOver, context) && takeOver[context] === true;
}

/** A context's inventory source: only an own, known value counts (hostile names cannot reach the prototype). */
export function sourceFor(
  source: Readonly<Record<string, InventorySource>>,
  context: string,
): InventorySource {
  const v = Object.hasOwn(source, context) ? source[context] : undefined;
  return v !== undefined && INVENTORY_SOURCES.includes(v) ? v : DEFAULT_INVENTORY_SOURCE;
}

/** Whether free GPUs (a watch on the GPU pods) are on for a context: on unless an own `false` says off. */
export function freeGpusOn(freeGpus: Readonly<Record<string, boolean>>, context: string): boolean {
  return !(Object.hasOwn(freeGpus, context) && freeGpus[context] === false);
}

/** A context's controller namespace: an own value, else the default. */
export function controllerNamespaceFor(
  namespaces: Readonly<Record<string, string>>,
  context: string,
): string {
  const v = Object.hasOwn(namespaces, context) ? namespaces[context] : undefined;
  return typeof v === 'string' && v !== '' ? v : DEFAULT_CONTROLLER_NAMESPACE;
}
