import { describe, expect, it } from 'vitest';
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import { ControllerMetrics } from './metrics.ts';

const node = (name: string, extra: Partial<GpuNodeEntry>): GpuNodeEntry => ({
  name,
  ready: true,
  product: 'NVIDIA-A100',
  count: 8,
  memory: 81920,
  workload: 'container',
  ...extra,
});
const inventory = (nodes: GpuNodeEntry[], extra: Partial<GpuInventoryStatus> = {}): GpuInventoryStatus => ({
  observed_at: '2026-12-01T12:00:00Z',
  total_gpu_nodes: nodes.length,
  ready_gpu_nodes: nodes.filter((n) => n.ready).length,
  total_gpus: nodes.reduce((s, n) => s + n.count, 0),
  nodes,
  ...extra,
});

describe('ControllerMetrics', () => {
  it('exposes nodes by state, GPUs, capacity vs allocatable, writes, restarts and leadership', async () => {
    const m = new ControllerMetrics();
    m.inventory(
      inventory([
        node('a', { readiness: 'True', capacity_gpus: 8, allocatable_gpus: 8 }),
        node('b', {
          ready: false,
          readiness: 'False',
          capacity_gpus: 8,
          allocatable_gpus: 6,
          cordoned: true,
        }),
        node('c', { ready: false, readiness: 'Unknown', capacity_gpus: null, allocatable_gpus: null }),
      ]),
    );
    m.write({ type: 'write', context: 'c', target: 'status', action: 'written', reason: 'changed', at: '' });
    m.write({
      type: 'write',
      context: 'c',
      target: 'configmap',
      action: 'failed',
      reason: 'forbidden',
      at: '',
    });
    m.connection('connecting');
    m.connection('live');
    m.connection('reconnecting');
    m.connection('live');
    m.leader(true);
    const text = await m.text();
    for (const line of [
      'gpu_fleet_gpu_nodes{state="ready"} 1',
      'gpu_fleet_gpu_nodes{state="not_ready"} 1',
      'gpu_fleet_gpu_nodes{state="unknown"} 1',
      'gpu_fleet_gpu_nodes_cordoned 1',
      'gpu_fleet_gpus 24',
      'gpu_fleet_gpus_capacity 16',
      'gpu_fleet_gpus_allocatable 14',
      'gpu_fleet_writes_total{target="status",outcome="written"} 1',
      'gpu_fleet_writes_total{target="configmap",outcome="failed"} 1',
      'gpu_fleet_writes_total{target="status",outcome="skipped"} 0',
      'gpu_fleet_watch_restarts_total 1',
      'gpu_fleet_leader 1',
    ])
      expect(text.split('\n')).toContain(line);
  });

  it('a compacted node list still counts every node from the totals', async () => {
    const m = new ControllerMetrics();
    m.inventory(
      inventory([node('a', {})], { total_gpu_nodes: 5000, ready_gpu_nodes: 4990, total_gpus: 40_000 }),
    );
    const text = (await m.text()).split('\n');
    expect(text).toContain('gpu_fleet_gpu_nodes{state="ready"} 4990');
    expect(text).toContain('gpu_fleet_gpu_nodes{state="not_ready"} 10');
    expect(text).toContain('gpu_fleet_gpus 40000');
  });
});

describe('ControllerMetrics.rendered', () => {
  it('is rendered on change, not per call: the last change shows once settled, and calls return the same buffer', async () => {
    const m = new ControllerMetrics();
    await m.settled();
    expect(m.rendered().body.toString()).toMatch(/^gpu_fleet_leader 0$/m);
    m.leader(true);
    m.synced(true);
    m.leader(false);
    m.leader(true);
    await m.settled();
    const a = m.rendered();
    expect(a.body.toString()).toMatch(/^gpu_fleet_leader 1$/m);
    expect(a.body.toString()).toMatch(/^gpu_fleet_synced 1$/m);
    expect(a.contentType).toMatch(/^text\/plain/);
    expect(m.rendered().body).toBe(a.body);
  });
});
