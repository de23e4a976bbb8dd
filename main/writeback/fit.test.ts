import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GpuNodeEntry } from '../../common/inventory.ts';
import { configMapData } from './configmap-writer.ts';
import {
  CONTROLLER_FIT_LIMITS,
  compactEntry,
  DEFAULT_FIT_LIMITS,
  fitNodes,
  SCALE_GPU_NODES,
  SCALE_MIN_INTERVAL_MS,
  statusIntervalMs,
} from './fit.ts';
import { fitStatus, withoutNulls } from './status-writer.ts';

const node = (i: number, ready = true): GpuNodeEntry => ({
  name: `gpu-${String(i).padStart(4, '0')}`,
  ready,
  product: 'NVIDIA-H100-80GB-HBM3',
  count: 8,
  memory: 81559,
  workload: 'container',
  not_ready_reason: ready ? null : 'KubeletNotReady',
  problems: ['a long problem sentence that makes the full entry larger than the compact one'],
});
const bytes = (n: GpuNodeEntry) => JSON.stringify(n).length;

describe('fitNodes', () => {
  it('keeps full entries that fit, compacts when not, then lists NotReady nodes first', () => {
    const nodes = [node(0), node(1, false), node(2), node(3, false)];
    const full = nodes.reduce((s, n) => s + bytes(n), 0);
    expect(fitNodes(nodes, full, bytes)).toEqual({ nodes, compacted: false, omitted: 0 });
    const compact = nodes.map(compactEntry);
    const small = compact.reduce((s, n) => s + bytes(n), 0);
    expect(fitNodes(nodes, small, bytes)).toEqual({ nodes: compact, compacted: true, omitted: 0 });
    const two = fitNodes(nodes, bytes(compact[1] as GpuNodeEntry) * 2 + 1, bytes);
    expect(two.nodes.map((n) => n.name)).toEqual(['gpu-0001', 'gpu-0003']);
    expect(two).toMatchObject({ compacted: true, omitted: 2 });
  });

  it('status and ConfigMap: totals untouched, within budget, listed + omitted = all (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { maxLength: 60 }),
        fc.integer({ min: 600, max: 20_000 }),
        (ready, budget) => {
          const nodes = ready.map((r, i) => node(i, r));
          const inv = {
            observed_at: '2026-12-01T00:00:00Z',
            total_gpu_nodes: nodes.length,
            ready_gpu_nodes: ready.filter(Boolean).length,
            total_gpus: nodes.length * 8,
            nodes,
          };
          const s = fitStatus(inv, budget);
          expect([s.total_gpu_nodes, s.ready_gpu_nodes, s.total_gpus]).toEqual([
            inv.total_gpu_nodes,
            inv.ready_gpu_nodes,
            inv.total_gpus,
          ]);
          expect(s.nodes.length + (s.nodes_omitted ?? 0)).toBe(nodes.length);
          expect(JSON.stringify(withoutNulls(s)).length).toBeLessThanOrEqual(budget);
          const data = configMapData(inv, budget);
          const summary = JSON.parse(data.summary ?? '{}') as Record<string, number>;
          expect(summary.total_gpu_nodes).toBe(inv.total_gpu_nodes);
          expect(Object.keys(data).length - 1 + (summary.nodes_omitted ?? 0)).toBe(nodes.length);
          expect(Object.values(data).reduce((n, v) => n + Buffer.byteLength(v), 0)).toBeLessThanOrEqual(
            budget,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('above listReadyUpTo: only NotReady nodes, compact, in budget; omitted = the rest; totals exact (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { maxLength: 60 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 600, max: 20_000 }),
        (ready, upTo, budget) => {
          const nodes = ready.map((r, i) => node(i, r));
          const inv = {
            observed_at: '2026-12-01T00:00:00Z',
            total_gpu_nodes: nodes.length,
            ready_gpu_nodes: ready.filter(Boolean).length,
            total_gpus: nodes.length * 8,
            nodes,
          };
          const s = fitStatus(inv, budget, upTo);
          const at = fitStatus(inv, budget);
          expect([s.total_gpu_nodes, s.ready_gpu_nodes, s.total_gpus]).toEqual([
            inv.total_gpu_nodes,
            inv.ready_gpu_nodes,
            inv.total_gpus,
          ]);
          expect(JSON.stringify(withoutNulls(s)).length).toBeLessThanOrEqual(budget);
          expect(s.nodes.length + (s.nodes_omitted ?? 0)).toBe(nodes.length);
          if (nodes.length <= upTo) {
            expect(s).toEqual(at);
            return;
          }
          expect(s.nodes_compacted).toBe(true);
          expect(s.nodes.every((n) => !n.ready)).toBe(true);
          // As many NotReady nodes as the default fit would list, in the same order.
          expect(s.nodes).toEqual(at.nodes.filter((n) => !n.ready).map(compactEntry));
          const notReady = nodes.filter((n) => !n.ready).map(compactEntry);
          if (s.nodes.length < notReady.length) expect(at.nodes.every((n) => !n.ready)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the controller lists only NotReady nodes above SCALE_GPU_NODES', () => {
    const nodes = Array.from({ length: 1001 }, (_, i) => node(i, i !== 7));
    const inv = {
      observed_at: '2026-12-01T00:00:00Z',
      total_gpu_nodes: 1001,
      ready_gpu_nodes: 1000,
      total_gpus: 8008,
      nodes,
    };
    const s = fitStatus(inv, CONTROLLER_FIT_LIMITS.statusBytes, CONTROLLER_FIT_LIMITS.listReadyUpTo);
    expect(s).toMatchObject({
      nodes: [compactEntry(node(7, false))],
      nodes_compacted: true,
      nodes_omitted: 1000,
    });
    const small = fitStatus({ ...inv, nodes: nodes.slice(0, 1000), total_gpu_nodes: 1000 }, 1_000_000, 1000);
    expect(small.nodes).toHaveLength(1000);
  });
});

describe('statusIntervalMs', () => {
  it('widens the controller status window to SCALE_MIN_INTERVAL_MS only above SCALE_GPU_NODES', () => {
    expect(SCALE_MIN_INTERVAL_MS).toBe(30_000);
    expect(statusIntervalMs(SCALE_GPU_NODES, 5000, CONTROLLER_FIT_LIMITS)).toBe(5000);
    expect(statusIntervalMs(SCALE_GPU_NODES + 1, 5000, CONTROLLER_FIT_LIMITS)).toBe(30_000);
    // A writer's own longer interval is kept; the app's write-back (no scale interval) never changes.
    expect(statusIntervalMs(3750, 60_000, CONTROLLER_FIT_LIMITS)).toBe(60_000);
    expect(statusIntervalMs(3750, 5000, DEFAULT_FIT_LIMITS)).toBe(5000);
  });
});
