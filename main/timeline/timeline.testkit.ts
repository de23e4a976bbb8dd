/** Shared by the timeline's tests: a temp data folder, small inventories, and a recorder on a ManualClock. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import { DEFAULT_TIMELINE } from '../../common/timeline.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { TimelineRecorder, type TimelineRecorderOptions } from './recorder.ts';

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-timeline-'));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export type NodeSpec = Partial<GpuNodeEntry> & { name: string };

export function node(spec: NodeSpec): GpuNodeEntry {
  return {
    ready: true,
    product: 'NVIDIA-A100',
    count: 4,
    memory: 40_960,
    workload: 'container',
    readiness: spec.ready === false ? 'False' : 'True',
    capacity_gpus: 4,
    allocatable_gpus: 4,
    ...spec,
  };
}

export function inventory(nodes: GpuNodeEntry[]): GpuInventoryStatus {
  return {
    observed_at: '2026-11-29T12:00:00Z',
    total_gpu_nodes: nodes.length,
    ready_gpu_nodes: nodes.filter((n) => n.ready).length,
    total_gpus: nodes.reduce((s, n) => s + n.count, 0),
    nodes,
  };
}

export const notReady = (
  name: string,
  reason = 'NodeStatusUnknown',
  message = 'Kubelet stopped posting node status.',
) => node({ name, ready: false, readiness: 'Unknown', not_ready_reason: reason, not_ready_message: message });

export function recorder(
  dir: string,
  clock = new ManualClock(),
  extra: Partial<TimelineRecorderOptions> = {},
): { rec: TimelineRecorder; clock: ManualClock; statuses: string[]; notices: string[] } {
  const statuses: string[] = [];
  const notices: string[] = [];
  const rec = new TimelineRecorder({
    dir,
    clock,
    settings: () => DEFAULT_TIMELINE,
    onStatus: (s) => statuses.push(s.state === 'recording' ? 'recording' : `${s.state}: ${s.reason}`),
    onNotice: (m) => notices.push(m),
    ...extra,
  });
  rec.start();
  return { rec, clock, statuses, notices };
}
