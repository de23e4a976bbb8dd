// Conformance: ConfigMap server-side apply (create 201, no-op keeps RV, dropped key removed, conflict 409).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, pick, uniq } from './client.ts';

let t: Target;
const name = uniq('conf-gpu-node-status');
const path = `/api/v1/namespaces/default/configmaps/${name}`;
const apply = (data: Record<string, string>, manager = 'gpu-fleet-configmap') =>
  call(t, `${path}?fieldManager=${manager}`, {
    method: 'PATCH',
    contentType: 'application/apply-patch+yaml',
    body: JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default' },
      data,
    }),
  });

beforeAll(async () => {
  t = await connect();
});
afterAll(async () => {
  await call(t, path, { method: 'DELETE' });
  await t.sim?.close();
});

describe('configmaps with server-side apply', () => {
  it('404 before, 201 on create, same resourceVersion on identical re-apply', async () => {
    expect((await call(t, path)).json.message).toBe(`configmaps "${name}" not found`);
    const c = await apply({ total_gpus: '1', omen2: 'ready=false' });
    expect(c.status).toBe(201);
    const again = await apply({ total_gpus: '1', omen2: 'ready=false' });
    expect(again.status).toBe(200);
    expect(pick(again.json, 'metadata', 'resourceVersion')).toBe(pick(c.json, 'metadata', 'resourceVersion'));
  });

  it('removes a key the manager no longer applies', async () => {
    const r = await apply({ total_gpus: '1' });
    expect(pick(r.json, 'data')).toEqual({ total_gpus: '1' });
  });

  it('conflicts with another manager', async () => {
    const r = await apply({ total_gpus: '7' }, 'someone-else');
    expect(r.status).toBe(409);
    expect(r.json.message).toBe(
      'Apply failed with 1 conflict: conflict with "gpu-fleet-configmap": .data.total_gpus',
    );
  });

  it('404 for a namespace that does not exist, 400 for a namespace mismatch', async () => {
    const r = await call(t, `/api/v1/namespaces/nope-${name}/configmaps/${name}?fieldManager=x`, {
      method: 'PATCH',
      contentType: 'application/apply-patch+yaml',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: {} }),
    });
    expect(r.status).toBe(404);
    expect(r.json.message).toBe(`namespaces "nope-${name}" not found`);
    const m = await call(t, `${path}?fieldManager=x`, {
      method: 'PATCH',
      contentType: 'application/apply-patch+yaml',
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: 'kube-system' },
      }),
    });
    expect(m.status).toBe(400);
  });

  it('a ConfigMap another tool created: apply without force conflicts on its fields, naming its manager; keys it does not own are added', async () => {
    const helmName = uniq('conf-helm-status');
    const helmPath = `/api/v1/namespaces/default/configmaps/${helmName}`;
    try {
      const created = await call(t, '/api/v1/namespaces/default/configmaps', {
        method: 'POST',
        headers: { 'User-Agent': 'helm/v3.16.2' },
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: helmName, labels: { 'app.kubernetes.io/managed-by': 'Helm' } },
          data: { summary: 'helm' },
        },
      });
      expect(created.status).toBe(201);
      const body = (labels: Record<string, string>, data: Record<string, string>) =>
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: helmName, namespace: 'default', labels },
          data,
        });
      const mine = await call(t, `${helmPath}?fieldManager=gpu-fleet-configmap`, {
        method: 'PATCH',
        contentType: 'application/apply-patch+yaml',
        body: body({ 'app.kubernetes.io/managed-by': 'gpu-fleet' }, { summary: '{}' }),
      });
      expect(mine.status).toBe(409);
      const causes = pick(mine.json, 'details', 'causes') as {
        reason: string;
        message: string;
        field: string;
      }[];
      expect(causes.map((c) => c.field).sort()).toEqual([
        '.data.summary',
        '.metadata.labels.app.kubernetes.io/managed-by',
      ]);
      for (const c of causes) {
        expect(c.reason).toBe('FieldManagerConflict');
        expect(c.message).toMatch(/^conflict with "helm"/);
      }
      const added = await call(t, `${helmPath}?fieldManager=gpu-fleet-configmap`, {
        method: 'PATCH',
        contentType: 'application/apply-patch+yaml',
        body: body({}, { 'gpu-node-1': '{}' }),
      });
      expect(added.status).toBe(200);
      expect(pick(added.json, 'data')).toEqual({ summary: 'helm', 'gpu-node-1': '{}' });
    } finally {
      await call(t, helmPath, { method: 'DELETE' });
    }
  });
});
