/**
 * A DCGM exporter's samples as one reading per GPU (pure). Only the counters we show are read; a GPU is
 * keyed by its `gpu` label (the NVML index), a sample without a valid one is ignored. Label strings come
 * from the cluster: they pass `clusterText()` (control characters out, length capped).
 *
 * Values are kept only inside what the hardware can report (PLAUSIBLE; XIDs by wholeXid); anything else
 * (1e308 °C, 101 % utilisation) is no reading for that field. This is the one door for readings: what
 * passes it, the alerts, the window and the settings file all take as it is.
 */
import { clusterText } from '../../common/cluster-text.ts';
import type { Dict } from '../../common/dict.ts';
import { dict } from '../../common/dict.ts';
import { TELEMETRY_MODEL_MAX } from '../../common/telemetry.ts';
import type { Sample } from './prom-text.ts';
import { wholeXid } from './xid.ts';

export interface GpuReading {
  index: number;
  uuid: string | null;
  model: string | null;
  util: number | null;
  temp: number | null;
  power: number | null;
  fbUsed: number | null;
  fbFree: number | null;
  /** The last XID (DCGM_FI_DEV_XID_ERRORS; 0 and values that are no XID are null). */
  xid: number | null;
  /**
   * XID → records in the exporter's window (DCGM_EXP_XID_ERRORS_COUNT); `{}` when exported with none,
   * null when the exporter does not export it.
   */
  xidCounts: Dict<number> | null;
}

/** The windowed XID count gauge of dcgm-exporter's xid-errors collector (label `xid`). */
export const XID_COUNT_METRIC = 'DCGM_EXP_XID_ERRORS_COUNT';

/** A node has at most a handful of GPUs; 64 leaves room for MIG-heavy exporters and no more. */
export const MAX_GPUS = 64;

type NumField = 'util' | 'temp' | 'power' | 'fbUsed' | 'fbFree' | 'xid';

/** [min, max] per measured field. */
const PLAUSIBLE: Readonly<Record<Exclude<NumField, 'xid'>, readonly [number, number]>> = {
  util: [0, 100], // %
  temp: [-60, 250], // °C: a GPU is dead long before 250
  power: [0, 10_000], // W: the largest boards draw about 1.2 kW
  fbUsed: [0, 1 << 24], // MiB: 16 TiB
  fbFree: [0, 1 << 24],
};

/** The value when it is one the hardware can report for `field`, else null. */
export function plausible(field: Exclude<NumField, 'xid'>, v: number): number | null {
  const [min, max] = PLAUSIBLE[field];
  return Number.isFinite(v) && v >= min && v <= max ? v : null;
}

const FIELDS: ReadonlyMap<string, NumField> = new Map([
  ['DCGM_FI_DEV_GPU_UTIL', 'util'],
  ['DCGM_FI_DEV_GPU_TEMP', 'temp'],
  ['DCGM_FI_DEV_POWER_USAGE', 'power'],
  ['DCGM_FI_DEV_FB_USED', 'fbUsed'],
  ['DCGM_FI_DEV_FB_FREE', 'fbFree'],
  ['DCGM_FI_DEV_XID_ERRORS', 'xid'],
]);

/**
 * Whether an exporter's answer holds any DCGM_FI_* sample. One without (an empty 200 from an exporter
 * still starting, another service on the port) is no reading: counted as one, it would look like every
 * GPU of the node had gone.
 */
export function hasDcgmSamples(samples: readonly Sample[]): boolean {
  return samples.some((s) => s.name.startsWith('DCGM_FI_'));
}

/**
 * A running dcgm-exporter whose GPUs are all gone still prints its metric families (HELP/TYPE lines)
 * with no samples: that IS a reading, of zero GPUs (a one-GPU node whose GPU fell off the bus must
 * raise gpu-gone). Only an answer without any DCGM family is no reading.
 */
export function isDcgmExporterText(text: string, samples: readonly Sample[]): boolean {
  return hasDcgmSamples(samples) || /^# TYPE DCGM_FI_\w+ /m.test(text);
}

/**
 * One reading per GPU. `ignored` hears one line per sample dropped because its XID is not a whole
 * positive XID (the callers log it at debug: an exporter that sends 3.5 or -1 is odd, not an alert).
 */
export function readGpus(
  samples: readonly Sample[],
  ignored: (line: string) => void = () => undefined,
): GpuReading[] {
  const byIndex = new Map<number, GpuReading>();
  for (const s of samples) {
    const field = s.name === XID_COUNT_METRIC ? 'xidCounts' : FIELDS.get(s.name);
    if (field === undefined) continue;
    const raw = s.labels.gpu;
    if (raw === undefined || !/^\d{1,3}$/.test(raw)) continue;
    const index = Number(raw);
    let g = byIndex.get(index);
    if (!g) {
      if (byIndex.size >= MAX_GPUS) continue;
      g = {
        index,
        uuid: null,
        model: null,
        util: null,
        temp: null,
        power: null,
        fbUsed: null,
        fbFree: null,
        xid: null,
        xidCounts: null,
      };
      byIndex.set(index, g);
    }
    if (field === 'xidCounts') {
      readXidCount(g, s, ignored);
      continue;
    }
    // MIG exporters repeat a GPU per instance (GPU_I_ID); the whole GPU's first sample wins.
    if (g[field] !== null) continue;
    if (s.labels.UUID !== undefined && g.uuid === null) g.uuid = clusterText(s.labels.UUID, 80);
    if (s.labels.modelName !== undefined && g.model === null)
      g.model = clusterText(s.labels.modelName, TELEMETRY_MODEL_MAX) || null;
    if (field === 'xid') readLastXid(g, s, ignored);
    else g[field] = plausible(field, s.value);
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

function readLastXid(g: GpuReading, s: Sample, ignored: (line: string) => void): void {
  if (s.value === 0) return;
  const xid = wholeXid(s.value);
  if (xid === null)
    ignored(`GPU ${g.index}: DCGM_FI_DEV_XID_ERRORS ${String(s.value)} is not an XID; ignored`);
  else g.xid = xid;
}

/** One series of the count gauge; the series without `xid` (the exporter's "none") only marks it exported. */
function readXidCount(g: GpuReading, s: Sample, ignored: (line: string) => void): void {
  g.xidCounts ??= dict<number>();
  const label = s.labels.xid;
  if (label === undefined || label === '' || label === '0') return;
  const xid = /^\d{1,5}$/.test(label) ? wholeXid(Number(label)) : null;
  if (xid === null || !Number.isInteger(s.value) || s.value < 0) {
    ignored(
      `GPU ${g.index}: ${XID_COUNT_METRIC}{xid="${clusterText(label, 20)}"} ${String(s.value)} is not an XID count; ignored`,
    );
    return;
  }
  if (s.value > 0) g.xidCounts[String(xid)] = Math.max(g.xidCounts[String(xid)] ?? 0, s.value);
}
