/**
 * A DCGM exporter's samples as one reading per GPU (pure). Only the counters we show are read; a GPU is
 * keyed by its `gpu` label (the NVML index), a sample without a valid one is ignored. Label strings come
 * from the cluster: they pass `clusterText()` (control characters out, length capped).
 *
 * Values are kept only inside what the hardware can report (PLAUSIBLE); anything else (1e308 °C, an
 * XID of 79.5 or -1) is no reading for that field. This is the one door for readings: what passes it,
 * the alerts, the window and the settings file all take as it is.
 */
import { clusterText } from '../../common/cluster-text.ts';
import type { Sample } from './prom-text.ts';

export interface GpuReading {
  index: number;
  uuid: string | null;
  model: string | null;
  util: number | null;
  temp: number | null;
  power: number | null;
  fbUsed: number | null;
  fbFree: number | null;
  xid: number | null;
}

/** A node has at most a handful of GPUs; 64 leaves room for MIG-heavy exporters and no more. */
export const MAX_GPUS = 64;

export type NumField = 'util' | 'temp' | 'power' | 'fbUsed' | 'fbFree' | 'xid';

/** [min, max, whole numbers only] per field. */
const PLAUSIBLE: Readonly<Record<NumField, readonly [number, number, boolean]>> = {
  util: [0, 100, false], // %
  temp: [-60, 250, false], // °C: a GPU is dead long before 250
  power: [0, 10_000, false], // W: the largest boards draw about 1.2 kW
  fbUsed: [0, 1 << 24, false], // MiB: 16 TiB
  fbFree: [0, 1 << 24, false],
  xid: [0, 0xffff, true], // NVIDIA's XID codes are small whole numbers
};

/** The value when it is one the hardware can report for `field`, else null. */
export function plausible(field: NumField, v: number): number | null {
  const [min, max, whole] = PLAUSIBLE[field];
  return Number.isFinite(v) && v >= min && v <= max && (!whole || Number.isInteger(v)) ? v : null;
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

export function readGpus(samples: readonly Sample[]): GpuReading[] {
  const byIndex = new Map<number, GpuReading>();
  for (const s of samples) {
    const field = FIELDS.get(s.name);
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
      };
      byIndex.set(index, g);
    }
    // MIG exporters repeat a GPU per instance (GPU_I_ID); the whole GPU's first sample wins.
    if (g[field] !== null) continue;
    if (s.labels.UUID !== undefined && g.uuid === null) g.uuid = clusterText(s.labels.UUID, 80);
    if (s.labels.modelName !== undefined && g.model === null) g.model = clusterText(s.labels.modelName, 120);
    g[field] = plausible(field, s.value);
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}
