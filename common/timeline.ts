/**
 * The timeline (issue 24): what the engine host recorded per cluster in its database, as the window, the
 * CLI's `history` and the morning summary read it. Plain serializable data; times are epoch ms.
 * Every string in here came from the cluster through the text gate before it was stored.
 */

import { type Static, Type } from '@sinclair/typebox';

export const TIMELINE_LIMITS = Object.freeze({
  retentionDays: { min: 1, max: 365 },
  maxMB: { min: 16, max: 100_000 },
  pricePerKwh: { min: 0, max: 1_000 },
  currencyMax: 8,
});

const L = TIMELINE_LIMITS;
/** The `timeline` setting: the settings file, the window's view and patch, and the form use this schema. */
export const TimelineSettingsSchema = Type.Object(
  {
    /** Days kept; older rows are deleted. */
    retentionDays: Type.Integer({ minimum: L.retentionDays.min, maximum: L.retentionDays.max }),
    /** The database's size cap: past it, the oldest rows go first. */
    maxMB: Type.Integer({ minimum: L.maxMB.min, maximum: L.maxMB.max }),
    /** Optional price of a kWh, to show energy as cost; null: no cost shown. */
    pricePerKwh: Type.Union([
      Type.Number({ minimum: L.pricePerKwh.min, maximum: L.pricePerKwh.max }),
      Type.Null(),
    ]),
    /** The currency the price is in (ISO 4217 code or a symbol), shown as written. */
    currency: Type.String({ maxLength: L.currencyMax, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$' }),
  },
  { additionalProperties: false },
);
export type TimelineSettingsView = Static<typeof TimelineSettingsSchema>;

export const DEFAULT_TIMELINE: Readonly<TimelineSettingsView> = Object.freeze({
  retentionDays: 30,
  maxMB: 512,
  pricePerKwh: null,
  currency: '',
});

/** Whether the timeline is being written, in one sentence when it is not (English; the window words it). */
export type TimelineStatus =
  | { state: 'recording' }
  /**
   * The monitor runs on; the timeline tries again by itself. `reason`: "the disk is full", … (English);
   * `kind` names it for the window's words.
   */
  | { state: 'not-recording'; kind: TimelineFaultKind; reason: string; since: number }
  /** Another GPU Fleet process writes this database; this one only reads it. */
  | { state: 'read-only'; reason: string };

/** Why the timeline is not written: main/timeline/faults.ts, `starting` before it opened, `stopped` (no app). */
export type TimelineFaultKind =
  | 'full'
  | 'read-only'
  | 'corrupt'
  | 'busy'
  | 'newer'
  | 'io'
  | 'starting'
  | 'stopped';

/** The window's ranges. */
export const TIMELINE_RANGES = ['1h', '24h', '7d', '30d'] as const;
export type TimelineRangeName = (typeof TIMELINE_RANGES)[number];
export const RANGE_MS: Readonly<Record<TimelineRangeName, number>> = Object.freeze({
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
});

/** What a node did: readiness (`Ready`, `NotReady`, `Unknown`, `absent`), GPUs offered, GPU labels. */
export type NodeChangeKind = 'ready' | 'gpus' | 'labels';

export interface NodeChange {
  node: string;
  at: number;
  kind: NodeChangeKind;
  /** For `ready`: Ready | NotReady | Unknown | absent. For `gpus`: "allocatable/capacity". For `labels`: the GPU count label. */
  from: string;
  to: string;
  reason: string | null;
  message: string | null;
}

export interface CountPoint {
  at: number;
  ready: number;
  total: number;
  gpus: number;
}

/** A stretch of time: the cluster unreachable, or the timeline not recording (app off, disk full). */
export interface TimelineSpan {
  kind: 'unreachable' | 'not-recording';
  from: number;
  /** null: still open. */
  to: number | null;
  message: string | null;
}

export interface TimelineDelivery {
  at: number;
  /** Where it went: "desktop", "ntfy", "webhook", … as the forwarder names it. */
  channel: string;
  ok: boolean;
  message: string | null;
}

export interface TimelineAlert {
  id: string;
  at: number;
  kind: string;
  nodes: string[];
  title: string;
  body: string;
  deliveries: TimelineDelivery[];
}

/** A Kubernetes event about a GPU node, kept past the server's one-hour expiry. */
export interface TimelineEvent {
  node: string;
  type: string;
  reason: string;
  message: string;
  count: number;
  first: number;
  last: number;
}

/**
 * One node's telemetry in a bucket of the range (a minute or more): utilisation % and temperature °C
 * over its GPUs' readings, power W and memory used MiB for the whole node (the mean reading per GPU
 * times the GPUs that reported), and the largest XID seen.
 */
export interface TelemetryPoint {
  node: string;
  at: number;
  gpus: number;
  util: Stat | null;
  temp: Stat | null;
  power: Stat | null;
  mem: Stat | null;
  xid: number | null;
}
export interface Stat {
  min: number;
  avg: number;
  max: number;
}

export interface EnergyTotal {
  node: string;
  kwh: number;
}

/** A run of trouble as the "what happened" list shows it. */
export interface Episode {
  kind: 'not-ready' | 'unreachable' | 'gpus-withdrawn';
  /** null for a whole-cluster episode (unreachable). */
  node: string | null;
  from: number;
  /** null: still going on at the end of the range. */
  to: number | null;
  /** The readiness reached (NotReady, Unknown, absent) or the GPUs offered ("2/4"). */
  state: string;
  reason: string | null;
  message: string | null;
  /** Kubernetes events about the node within the episode. */
  events: number;
  /** Alerts raised within the episode. */
  alerts: number;
}

export interface TimelineQuery {
  context: string;
  from: number;
  to: number;
  /** Only this node's changes, events, telemetry and energy. */
  node?: string;
}

/** One product's free GPUs over time: at each point the fewest free in its bucket. */
export interface FreeLine {
  /** The product as the free-GPU figures label it (`A100 SXM4 40GB MIG 1g.5gb`). */
  product: string;
  points: { at: number; free: number }[];
}

export interface TimelineView {
  context: string;
  from: number;
  to: number;
  node: string | null;
  status: TimelineStatus;
  counts: CountPoint[];
  changes: NodeChange[];
  spans: TimelineSpan[];
  alerts: TimelineAlert[];
  events: TimelineEvent[];
  episodes: Episode[];
  telemetry: TelemetryPoint[];
  energy: { nodes: EnergyTotal[]; kwh: number };
  /** Free GPUs by product over the range (a step line each; empty for a node's own range). */
  free: FreeLine[];
  /** Some list hit its cap (the newest rows are kept). */
  truncated: boolean;
}

/** The morning summary: one line per cluster after ≥ 8 h away. */
export interface AwaySummary {
  context: string;
  since: number;
  episodes: number;
  downMs: number;
  kwh: number;
}
export const AWAY_MIN_MS = 8 * 3_600_000;
