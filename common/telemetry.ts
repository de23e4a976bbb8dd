/**
 * Live GPU health from the GPU Operator's DCGM exporter, scraped through the API server (pods/proxy):
 * plain serializable data for the window, `gpu-fleet describe -o json` (`gpus[]`) and `gpu-fleet top`.
 * Every string that came from the cluster has passed `clusterText()` before it lands here.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { MessageKey } from './i18n/catalog-types.ts';

/** One sparkline point: epoch ms, utilisation % and temperature °C (null when not exported). */
export interface GpuSample {
  at: number;
  util: number | null;
  temp: number | null;
}

export interface GpuTelemetry {
  /** The exporter's `gpu` label (the NVML index). */
  index: number;
  uuid: string | null;
  model: string | null;
  utilPercent: number | null;
  temperatureC: number | null;
  powerW: number | null;
  memoryUsedMiB: number | null;
  /** FB_USED + FB_FREE. */
  memoryTotalMiB: number | null;
  /** Value of the last XID error (DCGM_FI_DEV_XID_ERRORS); null when 0 or not exported. */
  xid: number | null;
  /** What that XID means, from NVIDIA's XID catalogue; null for none or an XID we do not know. */
  xidMeaning: string | null;
  /** Oldest first, the last minutes. */
  history: GpuSample[];
}

export type NodeTelemetry =
  | { state: 'ok'; scrapedAt: string; gpus: GpuTelemetry[] }
  /** One sentence: "not available — no DCGM exporter", "forbidden: pods/proxy", … */
  | { state: 'unavailable'; message: string; scrapedAt: string | null };

/** The overview card's line per context: the hottest GPU and any XID seen (null when nothing scraped). */
export interface TelemetrySummary {
  hottest: { node: string; index: number; temperatureC: number } | null;
  xids: { node: string; index: number; xid: number }[];
  /**
   * The GPU model the exporter names (its `modelName` label) for GPU nodes whose product label is gone,
   * at most SUMMARY_MODELS_MAX: what the window and the CLI show there, marked "from telemetry". Absent
   * when no such node has a reading.
   */
  models?: { node: string; model: string }[];
}

/** A `modelName` label is cut past this many characters (real ones are ~20-40: "NVIDIA H100 80GB HBM3"). */
export const TELEMETRY_MODEL_MAX = 64;

/** Nodes whose telemetry model a summary carries at most (a card shows five; the table looks them up). */
export const SUMMARY_MODELS_MAX = 200;

/** The model a telemetry summary names for `node`, or null (a linear look-up over at most SUMMARY_MODELS_MAX). */
export function telemetryModel(summary: TelemetrySummary | undefined | null, node: string): string | null {
  return summary?.models?.find((m) => m.node === node)?.model ?? null;
}

/** The ranges of the telemetry settings, held by the one schema below (settings file, IPC, form). */
export const TELEMETRY_LIMITS = Object.freeze({
  autoMaxGpuNodes: { min: 0, max: 100_000 },
  budgetPerMinute: { min: 1, max: 600 },
});

/** The `telemetry` setting: the settings file, the window's view and patch, and the form use this schema. */
export const TelemetrySettingsSchema = Type.Object(
  {
    background: Type.Union([Type.Literal('auto'), Type.Literal('on'), Type.Literal('off')]),
    autoMaxGpuNodes: Type.Integer({
      minimum: TELEMETRY_LIMITS.autoMaxGpuNodes.min,
      maximum: TELEMETRY_LIMITS.autoMaxGpuNodes.max,
    }),
    budgetPerMinute: Type.Integer({
      minimum: TELEMETRY_LIMITS.budgetPerMinute.min,
      maximum: TELEMETRY_LIMITS.budgetPerMinute.max,
    }),
  },
  { additionalProperties: false },
);
export type TelemetrySettingsView = Static<typeof TelemetrySettingsSchema>;

/**
 * 'auto' runs background scrapes up to 200 GPU nodes: at the default budget of 20 nodes a minute one
 * round takes 10 minutes there, so a reading is at most ~10 min old; beyond that the background adds
 * requests without timely alerts (bench row `telemetry`). Open node details always scrape.
 */
export const DEFAULT_TELEMETRY: Readonly<TelemetrySettingsView> = Object.freeze({
  background: 'auto',
  autoMaxGpuNodes: 200,
  budgetPerMinute: 20,
});

/** The XID codes the catalogs explain (`xid.c79` …), for main (alerts, the CLI) and the window alike. */
const XID_KEYS: ReadonlyMap<number, MessageKey> = new Map<number, MessageKey>([
  [13, 'xid.c13'],
  [31, 'xid.c31'],
  [43, 'xid.c43'],
  [45, 'xid.c45'],
  [48, 'xid.c48'],
  [61, 'xid.c61'],
  [62, 'xid.c62'],
  [63, 'xid.c63'],
  [64, 'xid.c64'],
  [74, 'xid.c74'],
  [79, 'xid.c79'],
  [92, 'xid.c92'],
  [94, 'xid.c94'],
  [95, 'xid.c95'],
  [119, 'xid.c119'],
  [120, 'xid.c120'],
]);

export function xidKey(xid: number): MessageKey | null {
  return XID_KEYS.get(xid) ?? null;
}
