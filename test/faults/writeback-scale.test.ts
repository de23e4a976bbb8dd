/**
 * Fault matrix, write-back at scale against the simulator with the real size limits (sim/limits.ts):
 * 5,000 nodes (3,750 GPU nodes) give ~1.05 MB of full ConfigMap entries (over the 1 MiB limit, 422) and
 * ~1.2 MB of status. Write-back must still succeed for both targets with exact totals, saying what it
 * left out (fit.ts). A second test scales the limits down to show the omitting step at its limit.
 */
import { describe, expect, it } from 'vitest';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import {
  CONFIGMAP_FIELD_MANAGER,
  configMapApplyBody,
  configMapData,
  configMapPath,
} from '../../main/writeback/configmap-writer.ts';
import type { FitLimits } from '../../main/writeback/fit.ts';
import { DEFAULT_CRD_GROUP, type WriteEvent } from '../../main/writeback/index.ts';
import { applyObject } from '../../main/writeback/ssa.ts';
import { inventoryPath } from '../../main/writeback/status-writer.ts';
import type { SimOptions } from '../../sim/index.ts';
import { useCleanups } from './scope.ts';
import { getObject, startWritebackSim, startWriter } from './writeback-sim.ts';

const cleanup = useCleanups();

async function writeBackOnce(options: SimOptions, fitLimits?: FitLimits) {
  const { s, client, inventory } = await startWritebackSim(cleanup, options);
  const events: WriteEvent[] = [];
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((r) => {
    settle = r;
  });
  const writer = startWriter(
    cleanup,
    client,
    (e) => {
      events.push(e);
      if (['status', 'configmap'].every((t) => events.some((w) => w.target === t))) settle();
    },
    fitLimits ? { fitLimits } : {},
  );
  writer.update(inventory, false);
  await settled;
  const cm = await getObject(client, configMapPath('kube-system'));
  const inv = await getObject(client, inventoryPath(DEFAULT_CRD_GROUP));
  if (!inv.status) throw new Error('the GpuInventory has no status');
  return { s, client, inventory, events, writer, cm, status: inv.status };
}

const valueBytes = (data: Record<string, string>) =>
  Object.values(data).reduce((n, v) => n + Buffer.byteLength(v), 0);

function expectExact(
  inventory: GpuInventoryStatus,
  status: GpuInventoryStatus,
  summary: Record<string, unknown>,
) {
  for (const k of ['total_gpu_nodes', 'ready_gpu_nodes', 'total_gpus'] as const) {
    expect(status[k]).toBe(inventory[k]);
    expect(summary[k]).toBe(inventory[k]);
  }
  expect(status.nodes.length + (status.nodes_omitted ?? 0)).toBe(inventory.total_gpu_nodes);
}

describe('write-back at 5,000 nodes', () => {
  it('both targets are written within the limits, with exact totals', async () => {
    const { client, inventory, events, writer, cm, status } = await writeBackOnce({ scenario: 'large:5000' });
    // 3,750 by the count; more while network-operator resources still count as GPU evidence.
    expect(inventory.total_gpu_nodes).toBeGreaterThanOrEqual(3750);
    expect(events.map((e) => [e.target, e.action]).sort()).toEqual([
      ['configmap', 'written'],
      ['status', 'written'],
    ]);
    expect(writer.state()).toMatchObject({ phase: 'idle', message: null });
    const summary = JSON.parse(cm.data.summary ?? '{}') as Record<string, unknown>;
    expectExact(inventory, status, summary);
    expect(valueBytes(cm.data)).toBeLessThanOrEqual(1_048_576);
    expect(summary.nodes_compacted).toBe(true);
    expect(status.nodes_compacted).toBe(true);
    // The limit is real: the full entries are refused by the same server.
    const full = configMapData(inventory, Number.POSITIVE_INFINITY);
    expect(valueBytes(full)).toBeGreaterThan(1_048_576);
    await expect(
      applyObject(
        client,
        configMapPath('kube-system'),
        configMapApplyBody('kube-system', full),
        CONFIGMAP_FIELD_MANAGER,
        {
          what: 'writing the full ConfigMap',
          missing: { phase: 'error', message: () => 'missing' },
        },
      ),
    ).rejects.toMatchObject({ phase: 'invalid', status: 422, terminal: true });
  }, 60_000);

  it('with the limits scaled down, as many nodes as fit are listed and the rest counted as omitted', async () => {
    const { inventory, writer, cm, status } = await writeBackOnce(
      { scenario: 'large:200', limits: { configMapDataBytes: 8_000, etcdRequestBytes: 14_000 } },
      { statusBytes: 9_000, configMapBytes: 7_500 },
    );
    expect(writer.state()).toMatchObject({ phase: 'idle', message: null });
    const summary = JSON.parse(cm.data.summary ?? '{}') as Record<string, number>;
    expectExact(inventory, status, summary);
    expect(status.nodes_omitted).toBeGreaterThan(0);
    expect(summary.nodes_omitted).toBe(inventory.total_gpu_nodes - (Object.keys(cm.data).length - 1));
    expect(valueBytes(cm.data)).toBeLessThanOrEqual(8_000);
    // NotReady nodes are listed first.
    const listed = new Set(status.nodes.map((n) => n.name));
    const notReady = inventory.nodes.filter((n) => !n.ready);
    expect(notReady.length).toBeGreaterThan(0);
    if (listed.size >= notReady.length) expect(notReady.filter((n) => !listed.has(n.name))).toEqual([]);
    else expect(status.nodes.filter((n) => n.ready)).toEqual([]);
  }, 30_000);
});
