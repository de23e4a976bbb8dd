// Conformance: Node CRUD, status subresource patches, list paging and selectors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, pick, uniq } from './client.ts';

let t: Target;
const run = uniq('conf');
const names = ['a', 'b', 'c', 'd', 'e'].map((x) => `${run}-${x}`);

beforeAll(async () => {
  t = await connect();
  for (const [i, name] of names.entries()) {
    const r = await call(t, '/api/v1/nodes', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name,
          labels: { 'conformance-run': run, pool: i < 2 ? 'a' : 'b', ...(i === 0 ? { gpu: 'true' } : {}) },
        },
      },
    });
    expect(r.status).toBe(201);
  }
});

afterAll(async () => {
  for (const n of names) await call(t, `/api/v1/nodes/${n}`, { method: 'DELETE' });
  await t.sim?.close();
});

const sel = (extra = '') => `labelSelector=${encodeURIComponent(`conformance-run=${run}${extra}`)}`;
const itemNames = (j: Record<string, unknown>) =>
  (j.items as unknown[]).map((i) => pick(i, 'metadata', 'name'));

describe('node create/get/delete', () => {
  it('creates with the not-ready taint and status defaults, no kind on list items', async () => {
    const r = await call(t, `/api/v1/nodes/${names[0]}`);
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('Node');
    expect(pick(r.json, 'spec', 'taints')).toEqual([
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
    ]);
    expect(pick(r.json, 'status', 'daemonEndpoints')).toEqual({ kubeletEndpoint: { Port: 0 } });
    expect(pick(r.json, 'metadata', 'managedFields', 0, 'manager')).toBe('conformance');
    const l = await call(t, `/api/v1/nodes?${sel()}`);
    expect(l.json.kind).toBe('NodeList');
    expect(pick(l.json, 'items', 0, 'kind')).toBeUndefined();
  });

  it('answers 409 AlreadyExists and 404 NotFound as Status bodies', async () => {
    const dup = await call(t, '/api/v1/nodes', { method: 'POST', body: { metadata: { name: names[0] } } });
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({
      kind: 'Status',
      reason: 'AlreadyExists',
      message: `nodes "${names[0]}" already exists`,
      code: 409,
    });
    const missing = await call(t, '/api/v1/nodes/no-such-node-xyz');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({
      reason: 'NotFound',
      message: 'nodes "no-such-node-xyz" not found',
      details: { name: 'no-such-node-xyz', kind: 'nodes' },
    });
    const st = await call(t, '/api/v1/nodes/no-such-node-xyz/status', {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { status: {} },
    });
    expect(st.status).toBe(404);
  });
});

describe('status subresource', () => {
  const path = () => `/api/v1/nodes/${names[1]}/status`;
  const ready = {
    type: 'Ready',
    status: 'True',
    reason: 'KubeletReady',
    message: 'ok',
    lastHeartbeatTime: '2026-01-01T00:00:00Z',
    lastTransitionTime: '2026-01-01T00:00:00Z',
  };
  const mem = { ...ready, type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory' };
  const conds = async () =>
    (pick((await call(t, `/api/v1/nodes/${names[1]}`)).json, 'status', 'conditions') as {
      type: string;
      status: string;
    }[]) ?? [];

  it('strategic merge merges conditions by type; merge patch replaces the list', async () => {
    const smp = 'application/strategic-merge-patch+json';
    expect(
      (
        await call(t, path(), {
          method: 'PATCH',
          contentType: smp,
          body: { status: { conditions: [ready], capacity: { 'nvidia.com/gpu': '1' } } },
        })
      ).status,
    ).toBe(200);
    await call(t, path(), { method: 'PATCH', contentType: smp, body: { status: { conditions: [mem] } } });
    expect((await conds()).map((c) => c.type).sort()).toEqual(['MemoryPressure', 'Ready']);
    await call(t, path(), {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { status: { conditions: [ready] } },
    });
    expect((await conds()).map((c) => c.type)).toEqual(['Ready']);
  });

  it('JSON patch escapes / as ~1 and a failing test op is 422', async () => {
    const jp = 'application/json-patch+json';
    const ok = await call(t, path(), {
      method: 'PATCH',
      contentType: jp,
      body: [{ op: 'add', path: '/status/capacity/nvidia.com~1gpu', value: '2' }],
    });
    expect(ok.status).toBe(200);
    expect(pick(ok.json, 'status', 'capacity', 'nvidia.com/gpu')).toBe('2');
    const bad = await call(t, path(), {
      method: 'PATCH',
      contentType: jp,
      body: [{ op: 'test', path: '/status/capacity/nvidia.com~1gpu', value: '9' }],
    });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe('the server rejected our request due to an error in our request');
  });

  it('ignores status on the main resource (same resourceVersion)', async () => {
    const before = await call(t, `/api/v1/nodes/${names[1]}`);
    const r = await call(t, `/api/v1/nodes/${names[1]}`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { status: { capacity: { 'nvidia.com/gpu': '9' } } },
    });
    expect(r.status).toBe(200);
    expect(pick(r.json, 'status', 'capacity', 'nvidia.com/gpu')).toBe('2');
    expect(pick(r.json, 'metadata', 'resourceVersion')).toBe(
      pick(before.json, 'metadata', 'resourceVersion'),
    );
  });

  it('a patch with a stale resourceVersion is 409 Conflict', async () => {
    const r = await call(t, `/api/v1/nodes/${names[1]}`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { resourceVersion: '1', labels: { x: 'y' } } },
    });
    expect(r.status).toBe(409);
    expect(r.json.reason).toBe('Conflict');
  });

  it('rejects application/json as a patch type with 415', async () => {
    const r = await call(t, `/api/v1/nodes/${names[1]}`, {
      method: 'PATCH',
      contentType: 'application/json',
      body: {},
    });
    expect(r.status).toBe(415);
    expect(r.json.reason).toBe('UnsupportedMediaType');
  });
});

describe('list', () => {
  it('pages with limit/continue as a consistent snapshot sorted by name', async () => {
    const p1 = await call(t, `/api/v1/nodes?${sel()}&limit=2`);
    expect(itemNames(p1.json)).toEqual(names.slice(0, 2));
    const cont = pick(p1.json, 'metadata', 'continue') as string;
    expect(cont).toBeTruthy();
    await call(t, `/api/v1/nodes/${names[4]}`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { changed: 'yes' } } },
    });
    const p2 = await call(t, `/api/v1/nodes?${sel()}&limit=2&continue=${encodeURIComponent(cont)}`);
    expect(pick(p2.json, 'metadata', 'resourceVersion')).toBe(pick(p1.json, 'metadata', 'resourceVersion'));
    const p3 = await call(
      t,
      `/api/v1/nodes?${sel()}&limit=2&continue=${encodeURIComponent(pick(p2.json, 'metadata', 'continue') as string)}`,
    );
    expect(itemNames(p3.json)).toEqual([names[4]]);
    expect(pick(p3.json, 'items', 0, 'metadata', 'labels', 'changed')).toBeUndefined();
    expect(pick(p3.json, 'metadata', 'continue')).toBeUndefined();
  });

  it('reports remainingItemCount without selectors', async () => {
    const all = await call(t, '/api/v1/nodes');
    const total = (all.json.items as unknown[]).length;
    const p = await call(t, '/api/v1/nodes?limit=1');
    expect(pick(p.json, 'metadata', 'remainingItemCount')).toBe(total - 1);
  });

  it('rejects continue with resourceVersion and garbage tokens', async () => {
    const p1 = await call(t, `/api/v1/nodes?${sel()}&limit=2`);
    const cont = encodeURIComponent(pick(p1.json, 'metadata', 'continue') as string);
    const r = await call(t, `/api/v1/nodes?limit=2&resourceVersion=1&continue=${cont}`);
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('specifying resource version is not allowed when using continue');
    expect((await call(t, '/api/v1/nodes?limit=2&continue=garbage')).status).toBe(400);
  });

  it.each([
    ['pool=a', [0, 1]],
    ['pool==a', [0, 1]],
    ['pool!=a', [2, 3, 4]],
    ['pool in (a,b)', [0, 1, 2, 3, 4]],
    ['pool notin (a)', [2, 3, 4]],
    ['gpu', [0]],
    ['!gpu', [1, 2, 3, 4]],
  ])('label selector %s', async (expr, idx) => {
    const r = await call(t, `/api/v1/nodes?${sel(`,${expr}`)}`);
    expect(itemNames(r.json)).toEqual(idx.map((i) => names[i]));
  });

  it('field selectors: metadata.name, spec.unschedulable, others 400', async () => {
    const r = await call(t, `/api/v1/nodes?fieldSelector=metadata.name%3D${names[2]}`);
    expect(itemNames(r.json)).toEqual([names[2]]);
    const u = await call(t, `/api/v1/nodes?${sel()}&fieldSelector=spec.unschedulable%3Dfalse`);
    expect(itemNames(u.json)).toEqual(names);
    const bad = await call(t, '/api/v1/nodes?fieldSelector=status.phase%3DRunning');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('field label not supported: status.phase');
    const badLabel = await call(t, `/api/v1/nodes?labelSelector=${encodeURIComponent('pool in a')}`);
    expect(badLabel.status).toBe(400);
    expect(badLabel.json.message).toBe("unable to parse requirement: found 'a' expected: '('");
  });

  // Reads only the nodes this file created (beforeAll), so it passes on an empty real cluster too.
  it('serves Table output for kubectl', async () => {
    const r = await call(t, `/api/v1/nodes?limit=500&${sel()}`, {
      accept:
        'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
    });
    expect(r.json.kind).toBe('Table');
    expect((r.json.columnDefinitions as { name: string }[]).map((c) => c.name).slice(0, 5)).toEqual([
      'Name',
      'Status',
      'Roles',
      'Age',
      'Version',
    ]);
    const rows = r.json.rows as { cells: unknown[]; object: unknown }[];
    expect(rows.map((row) => row.cells[0])).toEqual(names);
    expect(pick(rows[0], 'object', 'kind')).toBe('PartialObjectMetadata');
    expect(pick(rows[0], 'object', 'metadata', 'name')).toBe(names[0]);
  });
});
