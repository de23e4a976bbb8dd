// Conformance: dryRun=All on create/update/patch/apply/delete (validated and answered, never stored: no
// watch event, no new resourceVersion) and apps/v1 Deployments (defaults, selector must match the template).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target, WatchEvent } from './client.ts';
import { call, connect, pick, uniq, until, watch } from './client.ts';

let t: Target;
const ns = 'default';
const name = uniq('conf-deploy');
const base = `/apis/apps/v1/namespaces/${ns}/deployments`;
const path = `${base}/${name}`;
const deployment = (labels: Record<string, string>, replicas = 2) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels },
      spec: { containers: [{ name: 'c', image: 'example/controller:1.0.0' }] },
    },
  },
});

beforeAll(async () => {
  t = await connect();
});
afterAll(async () => {
  await call(t, path, { method: 'DELETE' });
  await t.sim?.close();
});

describe('dry run and deployments', () => {
  it('a dry-run create answers the object with uid but no resourceVersion, and stores nothing', async () => {
    const events: WatchEvent[] = [];
    const list = await call(t, base);
    const w = await watch(
      t,
      `${base}?watch=1&resourceVersion=${String(pick(list.json, 'metadata', 'resourceVersion'))}`,
      (e) => events.push(e),
    );
    const r = await call(t, `${base}?dryRun=All`, { method: 'POST', body: deployment({ app: name }) });
    expect(r.status).toBe(201);
    expect(pick(r.json, 'metadata', 'uid')).toEqual(expect.any(String));
    expect(pick(r.json, 'metadata', 'resourceVersion')).toBeUndefined();
    expect(pick(r.json, 'spec', 'strategy')).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
    expect(pick(r.json, 'spec', 'template', 'spec', 'containers', 0, 'imagePullPolicy')).toBe('IfNotPresent');
    expect((await call(t, path)).status).toBe(404);
    const real = await call(t, base, { method: 'POST', body: deployment({ app: name }) });
    expect(real.status).toBe(201);
    await until(() => events.length >= 1);
    w.stop();
    expect(events.map((e) => [e.type, pick(e.object, 'metadata', 'name')])).toEqual([['ADDED', name]]);
  });

  it('dry-run update, patch, apply and delete leave the stored object and its resourceVersion alone', async () => {
    const cur = (await call(t, path)).json as Record<string, Record<string, unknown>>;
    const rv = String(cur.metadata?.resourceVersion);
    const put = structuredClone(cur);
    (put.spec as Record<string, unknown>).replicas = 5;
    const u = await call(t, `${path}?dryRun=All`, { method: 'PUT', body: put });
    expect(u.status).toBe(200);
    expect(pick(u.json, 'spec', 'replicas')).toBe(5);
    expect(pick(u.json, 'metadata', 'resourceVersion')).toBe(rv);
    const p = await call(t, `${path}?dryRun=All`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { spec: { replicas: 7 } },
    });
    expect(pick(p.json, 'spec', 'replicas')).toBe(7);
    const a = await call(t, `${path}?dryRun=All&fieldManager=conf&force=true`, {
      method: 'PATCH',
      contentType: 'application/apply-patch+yaml',
      body: JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: { replicas: 9 },
      }),
    });
    expect(a.status).toBe(200);
    expect(pick(a.json, 'spec', 'replicas')).toBe(9);
    expect((await call(t, `${path}?dryRun=All`, { method: 'DELETE' })).status).toBe(200);
    const after = (await call(t, path)).json;
    expect(pick(after, 'spec', 'replicas')).toBe(2);
    expect(pick(after, 'metadata', 'resourceVersion')).toBe(rv);
  });

  it('a dry run is validated: selector mismatch 422, namespace must exist, dryRun value must be All', async () => {
    const bad = await call(t, `${base}?dryRun=All`, {
      method: 'POST',
      body: { ...deployment({ app: 'other' }), metadata: { name: uniq('bad') } },
    });
    expect(bad.status).toBe(422);
    expect(pick(bad.json, 'details', 'causes')).toEqual([
      {
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
        field: 'spec.template.metadata.labels',
      },
    ]);
    const missing = uniq('nope');
    const nsr = await call(t, `/apis/apps/v1/namespaces/${missing}/deployments?dryRun=All`, {
      method: 'POST',
      body: { ...deployment({ app: name }), metadata: { name } },
    });
    expect(nsr.status).toBe(404);
    expect(nsr.json.message).toBe(`namespaces "${missing}" not found`);
    const v = await call(t, `${base}?dryRun=Some`, { method: 'POST', body: deployment({ app: name }) });
    expect(v.status).toBe(422);
    expect(v.json.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"',
    );
  });

  it('a Deployment without selector or containers is 422', async () => {
    const r = await call(t, base, {
      method: 'POST',
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: uniq('empty') },
        spec: { template: {} },
      },
    });
    expect(r.status).toBe(422);
    expect((pick(r.json, 'details', 'causes') as { field: string }[]).map((c) => c.field)).toEqual([
      'spec.selector',
      'spec.template.spec.containers',
    ]);
  });
});
