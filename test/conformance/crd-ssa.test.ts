// Conformance: a CRD (own test group), Established, discovery, custom resources, server-side apply on /status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, pick, sleep, uniq } from './client.ts';

let t: Target;
const group = `${uniq('conf')}.gpufleet.example.dev`;
const crdName = `gpuinventories.${group}`;
const base = `/apis/${group}/v1/gpuinventories`;
const APPLY = 'application/apply-patch+yaml';
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: crdName },
  spec: {
    group,
    scope: 'Cluster',
    names: {
      kind: 'GpuInventory',
      listKind: 'GpuInventoryList',
      plural: 'gpuinventories',
      singular: 'gpuinventory',
      shortNames: ['gpuinvconf'],
    },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Ready', type: 'integer', jsonPath: '.status.ready_gpu_nodes' },
          { name: 'GPUs', type: 'integer', jsonPath: '.status.total_gpus' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              status: {
                type: 'object',
                properties: {
                  observed_at: { type: 'string', format: 'date-time' },
                  total_gpu_nodes: { type: 'integer' },
                  ready_gpu_nodes: { type: 'integer' },
                  total_gpus: { type: 'integer' },
                  nodes: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['name'],
                      properties: { name: { type: 'string' }, count: { type: 'integer' } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};

const apply = (path: string, body: string, manager = 'gpu-fleet', extra = '') =>
  call(t, `${path}?fieldManager=${manager}${extra}`, { method: 'PATCH', contentType: APPLY, body });
const doc = (status: string) =>
  `apiVersion: ${group}/v1\nkind: GpuInventory\nmetadata:\n  name: cluster\n${status}`;
const statusDoc = (total: number, nodes = '  nodes:\n  - name: nuc1\n    count: 1\n') =>
  doc(
    `status:\n  observed_at: "2026-11-29T21:00:00Z"\n  total_gpu_nodes: 4\n  ready_gpu_nodes: 0\n  total_gpus: ${total}\n${nodes}`,
  );

beforeAll(async () => {
  t = await connect();
  expect(
    (await call(t, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', body: crd }))
      .status,
  ).toBe(201);
  for (let i = 0; i < 100; i++) {
    const r = await call(t, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`);
    const conds = (pick(r.json, 'status', 'conditions') as { type: string; status: string }[] | null) ?? [];
    if (
      conds.some((c) => c.type === 'Established' && c.status === 'True') &&
      (await call(t, base)).status === 200
    )
      break;
    await sleep(50);
  }
});

afterAll(async () => {
  await call(t, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`, { method: 'DELETE' });
  await t.sim?.close();
});

describe('CRD and custom resources', () => {
  it('appears in aggregated discovery with its short name', async () => {
    const r = await call(t, '/apis', {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    });
    const g = (r.json.items as { metadata: { name: string } }[]).find((i) => i.metadata.name === group);
    expect(pick(g, 'versions', 0, 'resources', 0, 'shortNames')).toEqual(['gpuinvconf']);
    expect(pick(g, 'versions', 0, 'resources', 0, 'subresources', 0, 'subresource')).toBe('status');
  });

  it('apply to /status of a missing object is 404; apply to the main resource creates it (201)', async () => {
    expect((await apply(`${base}/cluster/status`, statusDoc(1))).status).toBe(404);
    const r = await apply(`${base}/cluster`, doc('spec: {}\n'));
    expect(r.status).toBe(201);
    expect(pick(r.json, 'metadata', 'generation')).toBe(1);
  });

  it('rejects bad apply bodies: 400 no kind, 400 wrong kind, 422 no fieldManager, 400 name mismatch', async () => {
    const noKind = await apply(`${base}/cluster/status`, 'metadata:\n  name: cluster\n');
    expect(noKind.status).toBe(400);
    expect(noKind.json.message).toBe('invalid object type: /, Kind=');
    const wrong = await apply(
      `${base}/cluster/status`,
      'apiVersion: v1\nkind: Node\nmetadata:\n  name: cluster\n',
    );
    expect(wrong.json.message).toBe('invalid object type: /v1, Kind=Node');
    const noMgr = await call(t, `${base}/cluster/status`, {
      method: 'PATCH',
      contentType: APPLY,
      body: statusDoc(1),
    });
    expect(noMgr.status).toBe(422);
    expect(noMgr.json.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
    const other = await apply(`${base}/cluster/status`, statusDoc(1).replace('name: cluster', 'name: other'));
    expect(other.status).toBe(400);
    expect(other.json.message).toBe(
      'the name of the object (other) does not match the name on the URL (cluster)',
    );
  });

  it('applies status; an identical re-apply (YAML or JSON) keeps the resourceVersion', async () => {
    const first = await apply(`${base}/cluster/status`, statusDoc(1));
    expect(first.status).toBe(200);
    expect(pick(first.json, 'status', 'total_gpus')).toBe(1);
    const entry = (
      pick(first.json, 'metadata', 'managedFields') as { manager: string; subresource?: string }[]
    ).find((e) => e.subresource === 'status');
    expect(entry?.manager).toBe('gpu-fleet');
    const again = await apply(`${base}/cluster/status`, statusDoc(1));
    expect(pick(again.json, 'metadata', 'resourceVersion')).toBe(
      pick(first.json, 'metadata', 'resourceVersion'),
    );
    const asJson = JSON.stringify({
      apiVersion: `${group}/v1`,
      kind: 'GpuInventory',
      metadata: { name: 'cluster' },
      status: {
        observed_at: '2026-11-29T21:00:00Z',
        total_gpu_nodes: 4,
        ready_gpu_nodes: 0,
        total_gpus: 1,
        nodes: [{ name: 'nuc1', count: 1 }],
      },
    });
    const j = await apply(`${base}/cluster/status`, asJson);
    expect(pick(j.json, 'metadata', 'resourceVersion')).toBe(pick(first.json, 'metadata', 'resourceVersion'));
  });

  it('a second manager conflicts (409, causes per field) unless it forces', async () => {
    const body = doc('status:\n  total_gpus: 2\n  ready_gpu_nodes: 0\n');
    const c = await apply(`${base}/cluster/status`, body, 'other-agent');
    expect(c.status).toBe(409);
    expect(c.json.message).toBe(
      'Apply failed with 1 conflict: conflict with "gpu-fleet" with subresource "status": .status.total_gpus',
    );
    expect(pick(c.json, 'details', 'causes')).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "gpu-fleet" with subresource "status"',
        field: '.status.total_gpus',
      },
    ]);
    const f = await apply(`${base}/cluster/status`, body, 'other-agent', '&force=true');
    expect(f.status).toBe(200);
    expect(pick(f.json, 'status', 'total_gpus')).toBe(2);
    const back = await apply(`${base}/cluster/status`, statusDoc(1), 'gpu-fleet', '&force=true');
    expect(pick(back.json, 'status', 'total_gpus')).toBe(1);
  });

  it('removes fields the manager stops applying unless another manager co-owns them', async () => {
    const r = await apply(
      `${base}/cluster/status`,
      doc('status:\n  total_gpus: 1\n  total_gpu_nodes: 4\n  observed_at: "2026-11-29T21:00:00Z"\n'),
    );
    expect(pick(r.json, 'status', 'nodes')).toBeUndefined();
    expect(pick(r.json, 'status', 'ready_gpu_nodes')).toBe(0);
  });

  it('ignores status sent to the main resource and rejects schema violations', async () => {
    const before = await call(t, `${base}/cluster`);
    const m = await call(t, `${base}/cluster`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { status: { total_gpus: 99 } },
    });
    expect(pick(m.json, 'status', 'total_gpus')).toBe(1);
    expect(pick(m.json, 'metadata', 'resourceVersion')).toBe(
      pick(before.json, 'metadata', 'resourceVersion'),
    );
    const bad = await call(t, `${base}/cluster/status`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { status: { total_gpus: 'x' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe(
      `GpuInventory.${group} "cluster" is invalid: status.total_gpus: Invalid value: "string": total_gpus in body must be of type integer: "string"`,
    );
  });

  it('serves a Table with the printer columns and rejects apply-patch+json with 415', async () => {
    const tbl = await call(t, `${base}?limit=500`, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    });
    expect((tbl.json.columnDefinitions as { name: string }[]).map((c) => c.name)).toEqual([
      'Name',
      'Ready',
      'GPUs',
    ]);
    expect(pick(tbl.json, 'rows', 0, 'cells')).toEqual(['cluster', 0, 1]);
    const r = await call(t, `${base}/cluster/status?fieldManager=x`, {
      method: 'PATCH',
      contentType: 'application/apply-patch+json',
      body: '{}',
    });
    expect(r.status).toBe(415);
  });

  it('deletes a custom resource with a Success Status', async () => {
    const d = await call(t, `${base}/cluster`, { method: 'DELETE' });
    expect(d.json).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'cluster', group, kind: 'gpuinventories' },
    });
  });
});
