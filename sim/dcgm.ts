// The GPUs a simulated nvidia-dcgm-exporter reports, and its /metrics text as dcgm-exporter 3.3.x prints
// it: the counters of its etc/default-counters.csv in that order, each with its "# HELP" and "# TYPE"
// lines, one sample per GPU labelled gpu, UUID, pci_bus_id, device, modelName, Hostname and
// DCGM_FI_DRIVER_VERSION. Values move with the clock (a slow wave per GPU) unless a control pins them.
import { createHash } from 'node:crypto';

export interface SimGpu {
  index: number;
  uuid: string;
  pciBusId: string;
  model: string;
  memoryMiB: number;
  /** Pinned by a control (null: the wave decides). */
  util: number | null;
  tempC: number | null;
  /** Value of the last XID error (0: none), as DCGM_FI_DEV_XID_ERRORS reports it. */
  xid: number;
}

export interface SimExporter {
  node: string;
  driver: string;
  gpus: SimGpu[];
}

const COUNTERS: readonly [string, 'gauge' | 'counter', string][] = [
  ['DCGM_FI_DEV_SM_CLOCK', 'gauge', 'SM clock frequency (in MHz).'],
  ['DCGM_FI_DEV_MEM_CLOCK', 'gauge', 'Memory clock frequency (in MHz).'],
  ['DCGM_FI_DEV_MEMORY_TEMP', 'gauge', 'Memory temperature (in C).'],
  ['DCGM_FI_DEV_GPU_TEMP', 'gauge', 'GPU temperature (in C).'],
  ['DCGM_FI_DEV_POWER_USAGE', 'gauge', 'Power draw (in W).'],
  ['DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION', 'counter', 'Total energy consumption since boot (in mJ).'],
  ['DCGM_FI_DEV_PCIE_REPLAY_COUNTER', 'counter', 'Total number of PCIe retries.'],
  ['DCGM_FI_DEV_GPU_UTIL', 'gauge', 'GPU utilization (in %).'],
  ['DCGM_FI_DEV_MEM_COPY_UTIL', 'gauge', 'Memory utilization (in %).'],
  ['DCGM_FI_DEV_ENC_UTIL', 'gauge', 'Encoder utilization (in %).'],
  ['DCGM_FI_DEV_DEC_UTIL', 'gauge', 'Decoder utilization (in %).'],
  ['DCGM_FI_DEV_XID_ERRORS', 'gauge', 'Value of the last XID error encountered.'],
  ['DCGM_FI_DEV_FB_FREE', 'gauge', 'Framebuffer memory free (in MiB).'],
  ['DCGM_FI_DEV_FB_USED', 'gauge', 'Framebuffer memory used (in MiB).'],
  [
    'DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL',
    'counter',
    'Total number of NVLink bandwidth counters for all lanes',
  ],
];

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

function uuidFor(node: string, index: number): string {
  const h = hash(`${node}/${index}`);
  return `GPU-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** "NVIDIA-GeForce-RTX-4070-SUPER" (the GFD label) → "NVIDIA GeForce RTX 4070 SUPER" (NVML's name). */
export function modelFromLabel(label: string | undefined): string {
  if (!label) return 'NVIDIA A100-SXM4-80GB';
  return label
    .replace(/-SHARED$/, '')
    .replace(/^NVIDIA-/, 'NVIDIA ')
    .replaceAll('-', ' ');
}

export function makeExporter(node: string, count: number, model: string, memoryMiB: number): SimExporter {
  const gpus: SimGpu[] = [];
  for (let i = 0; i < count; i++) {
    gpus.push({
      index: i,
      uuid: uuidFor(node, i),
      pciBusId: `00000000:${(0x07 + i * 0x10).toString(16).toUpperCase().padStart(2, '0')}:00.0`,
      model,
      memoryMiB,
      util: null,
      tempC: null,
      xid: 0,
    });
  }
  return { node, driver: '550.127.05', gpus };
}

/** Label values are escaped as the text format wants: backslash, double quote and newline. */
const esc = (v: string) => v.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');

interface Reading {
  util: number;
  temp: number;
  values: Map<string, number>;
}

function read(g: SimGpu, node: string, now: number, busy: boolean): Reading {
  // A slow wave (period ~10 min) with a per-GPU phase: the sparkline moves, tests can pin values. A GPU
  // with no work (busy false) idles at 0 %: the telemetry agrees with the node's state.
  const phase = Number.parseInt(hash(`${node}/${g.index}/phase`).slice(0, 6), 16) / 0xffffff;
  const wave = (Math.sin((now / 600_000 + phase) * 2 * Math.PI) + 1) / 2;
  const util = g.util ?? (busy ? Math.round(20 + wave * 70) : 0);
  const temp = g.tempC ?? Math.round(38 + util * 0.35);
  const used = Math.round(g.memoryMiB * (0.1 + util / 130));
  const values = new Map<string, number>([
    ['DCGM_FI_DEV_SM_CLOCK', util > 5 ? 1980 : 210],
    ['DCGM_FI_DEV_MEM_CLOCK', 10501],
    ['DCGM_FI_DEV_MEMORY_TEMP', 0],
    ['DCGM_FI_DEV_GPU_TEMP', temp],
    ['DCGM_FI_DEV_POWER_USAGE', Math.round((18 + util * 2.1) * 1000) / 1000],
    ['DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION', Math.floor(now / 1000) * 95_000],
    ['DCGM_FI_DEV_PCIE_REPLAY_COUNTER', 0],
    ['DCGM_FI_DEV_GPU_UTIL', util],
    ['DCGM_FI_DEV_MEM_COPY_UTIL', Math.round(util / 3)],
    ['DCGM_FI_DEV_ENC_UTIL', 0],
    ['DCGM_FI_DEV_DEC_UTIL', 0],
    ['DCGM_FI_DEV_XID_ERRORS', g.xid],
    ['DCGM_FI_DEV_FB_FREE', g.memoryMiB - used],
    ['DCGM_FI_DEV_FB_USED', used],
    ['DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL', 0],
  ]);
  return { util, temp, values };
}

/** The exporter's whole /metrics answer at `now`; `busy`: the node runs GPU work that can do anything. */
export function metricsText(e: SimExporter, now: number, busy = true): string {
  const lines: string[] = [];
  const readings = e.gpus.map((g) => ({ g, r: read(g, e.node, now, busy) }));
  for (const [name, type, help] of COUNTERS) {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const { g, r } of readings) {
      const labels = [
        `gpu="${g.index}"`,
        `UUID="${esc(g.uuid)}"`,
        `pci_bus_id="${esc(g.pciBusId)}"`,
        `device="nvidia${g.index}"`,
        `modelName="${esc(g.model)}"`,
        `Hostname="${esc(e.node)}"`,
        `DCGM_FI_DRIVER_VERSION="${esc(e.driver)}"`,
      ].join(',');
      lines.push(`${name}{${labels}} ${r.values.get(name) ?? 0}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
