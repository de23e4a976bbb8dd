/**
 * Fault matrix, write-back safety: it never takes over what it did not create. A ConfigMap of another
 * tool (Helm), a status written by another operator, a CRD of another schema: each is a named state
 * naming the owner, nothing is written; `takeOver` is the explicit opt-in and still never touches a key
 * another tool created. A deleted `cluster` object is re-created (it is not "CRD not installed").
 */
import { describe, expect, it } from 'vitest';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { configMapPath } from '../../main/writeback/configmap-writer.ts';
import { DEFAULT_CRD_GROUP, type WriteEvent } from '../../main/writeback/index.ts';
import { inventoryPath } from '../../main/writeback/status-writer.ts';
import { TAKE_OVER_HINT } from '../../main/writeback/write-error.ts';
import { useCleanups } from './scope.ts';
import { getObject, otherSchemaCrd, startWritebackSim, startWriter, WB_NAMESPACE } from './writeback-sim.ts';

const cleanup = useCleanups();
const NS = WB_NAMESPACE;
const CM = configMapPath(NS);

async function setup(install = true) {
  const { s, client, inventory } = await startWritebackSim(cleanup, { scenario: 'homelab' }, install);
  const send = async (method: string, path: string, body: unknown, type: string, agent = 'helm/v3.16') => {
    const r = await client.request(method, path, {
      body: JSON.stringify(body),
      headers: { 'Content-Type': type, Accept: 'application/json', 'User-Agent': agent },
    });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  };
  const getJson = (path: string) => getObject(client, path);
  const start = (takeOver = false) => {
    const events: WriteEvent[] = [];
    const writer = startWriter(cleanup, client, (e) => events.push(e), { takeOver });
    const outcome = (target: string) =>
      expect.poll(() => events.find((e) => e.target === target)?.action, { timeout: 10_000, interval: 5 });
    return { writer, events, outcome };
  };
  return { s, client, inventory, send, getJson, start };
}

const helmConfigMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'gpu-node-status', namespace: NS, labels: { 'app.kubernetes.io/managed-by': 'Helm' } },
  data: { summary: 'helm-owned', 'helm-key': 'keep me' },
};

describe('write-back never takes over what it did not create', () => {
  it('a Helm-made gpu-node-status is not touched: conflict naming its owner, no PATCH', async () => {
    const { s, inventory, send, getJson, start } = await setup();
    await send('POST', `/api/v1/namespaces/${NS}/configmaps`, helmConfigMap, 'application/json');
    s.sim.control.resetRequestLog();
    const { writer, outcome, events } = start();
    writer.update(inventory, false);
    await outcome('configmap').toBe('failed');
    await outcome('status').toBe('written');
    const message = events.find((e) => e.target === 'configmap')?.reason ?? '';
    expect(message).toBe(
      `ConfigMap ${NS}/gpu-node-status exists and was not created by GPU Fleet (field manager "helm", label app.kubernetes.io/managed-by=Helm). ${TAKE_OVER_HINT}.`,
    );
    expect(writer.state()).toMatchObject({ phase: 'conflict' });
    const cm = await getJson(CM);
    expect(cm.data).toEqual(helmConfigMap.data);
    expect(cm.metadata.labels).toEqual(helmConfigMap.metadata.labels);
    expect(s.sim.control.requestLog().filter((r) => r.method === 'PATCH' && r.path.startsWith(CM))).toEqual(
      [],
    );
  });

  it('with take-over it writes its own keys only: the Helm keys stay, also after a node goes', async () => {
    const { inventory, send, getJson, start } = await setup();
    await send('POST', `/api/v1/namespaces/${NS}/configmaps`, helmConfigMap, 'application/json');
    const { writer, outcome, events } = start(true);
    writer.update(inventory, false);
    await outcome('configmap').toBe('written');
    let cm = await getJson(CM);
    expect(cm.data.summary).toBe('helm-owned');
    expect(cm.data['helm-key']).toBe('keep me');
    const gone = inventory.nodes[0]?.name ?? '';
    expect(cm.data[gone]).toBeDefined();
    const fewer: GpuInventoryStatus = {
      ...inventory,
      nodes: inventory.nodes.slice(1),
      total_gpu_nodes: inventory.total_gpu_nodes - 1,
    };
    writer.update(fewer, false);
    await expect
      .poll(() => events.filter((e) => e.target === 'configmap' && e.action === 'written').length, {
        timeout: 10_000,
        interval: 5,
      })
      .toBe(2);
    cm = await getJson(CM);
    expect(cm.data[gone]).toBeUndefined();
    expect(cm.data['helm-key']).toBe('keep me');
    expect(cm.data.summary).toBe('helm-owned');
  });

  it("another operator's status is not force-applied: conflict naming its field manager", async () => {
    const { inventory, send, getJson, start } = await setup();
    const theirs = {
      observed_at: '2026-01-01T00:00:00Z',
      total_gpu_nodes: 9,
      ready_gpu_nodes: 9,
      total_gpus: 72,
      nodes: [],
    };
    await send(
      'PATCH',
      `${inventoryPath(DEFAULT_CRD_GROUP, 'status')}?fieldManager=rust-gpu-operator`,
      {
        apiVersion: `${DEFAULT_CRD_GROUP}/v1`,
        kind: 'GpuInventory',
        metadata: { name: 'cluster' },
        status: theirs,
      },
      'application/apply-patch+yaml',
    );
    const { writer, outcome, events } = start();
    writer.update(inventory, false);
    await outcome('status').toBe('failed');
    expect(events.find((e) => e.target === 'status')?.reason).toBe(
      `The GpuInventory "cluster" status is owned by field manager "rust-gpu-operator". ${TAKE_OVER_HINT}.`,
    );
    expect((await getJson(inventoryPath(DEFAULT_CRD_GROUP))).status).toEqual(theirs);
  });

  it('a CRD of that name with another schema is crd-mismatch before anything is written', async () => {
    const { send, inventory, start, s } = await setup(false);
    const other = otherSchemaCrd();
    await send(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      other,
      'application/json',
      'other-operator',
    );
    s.sim.control.resetRequestLog();
    const { writer, outcome, events } = start();
    writer.update(inventory, false);
    await outcome('status').toBe('failed');
    expect(writer.state().phase).toBe('crd-mismatch');
    expect(events.find((e) => e.target === 'status')?.reason).toContain(
      'status.total_gpus is of type string, not integer',
    );
    const statusPatches = s.sim.control
      .requestLog()
      .filter((r) => r.method === 'PATCH' && r.path.startsWith('/apis/gpufleet.io/'));
    expect(statusPatches).toEqual([]);
  });

  it('a deleted cluster object is created again, not reported as a missing CRD', async () => {
    const { client, inventory, getJson, start } = await setup();
    const { writer, events } = start();
    writer.update(inventory, false);
    const written = () => events.filter((e) => e.target === 'status' && e.action === 'written').length;
    await expect.poll(written, { timeout: 10_000, interval: 5 }).toBe(1);
    const del = await client.request('DELETE', inventoryPath(DEFAULT_CRD_GROUP), {
      headers: { Accept: 'application/json' },
    });
    expect(del.status).toBe(200);
    writer.update(
      { ...inventory, nodes: inventory.nodes.slice(1), total_gpu_nodes: inventory.total_gpu_nodes - 1 },
      false,
    );
    await expect.poll(written, { timeout: 10_000, interval: 5 }).toBe(2);
    expect(writer.state().phase).toBe('idle');
    // Re-created at once: no crd-missing (or any) failure on the way.
    expect(events.filter((e) => e.target === 'status' && e.action === 'failed')).toEqual([]);
    expect((await getJson(inventoryPath(DEFAULT_CRD_GROUP))).status?.total_gpu_nodes).toBe(
      inventory.total_gpu_nodes - 1,
    );
  });
});
