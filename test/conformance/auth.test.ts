// Conformance: 401/403 bodies, anonymous access, the read-only user, SelfSubjectAccessReview; error shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, pick } from './client.ts';

let t: Target;
beforeAll(async () => {
  t = await connect();
});
afterAll(async () => {
  await t.sim?.close();
});

describe('authentication and authorization', () => {
  it('a bad token is 401 Unauthorized, also on /version', async () => {
    for (const p of ['/api/v1/nodes', '/version']) {
      const r = await call(t, p, { token: 'not-a-valid-token' });
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({
        kind: 'Status',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      });
    }
  });

  it('no credentials is the anonymous user: 403 on nodes, 200 on /version', async () => {
    const r = await call(t, '/api/v1/nodes', { token: null });
    expect(r.status).toBe(403);
    expect(r.json.message).toBe(
      'nodes is forbidden: User "system:anonymous" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    expect((await call(t, '/version', { token: null })).status).toBe(200);
  });

  it.runIf(
    Boolean(process.env.GPU_FLEET_CONFORMANCE_READONLY_CONTEXT) ||
      !process.env.GPU_FLEET_CONFORMANCE_KUBECONFIG,
  )('the read-only user may list nodes but not patch their status or read configmaps', async () => {
    const ro = t.readonlyToken as string;
    expect((await call(t, '/api/v1/nodes', { token: ro })).status).toBe(200);
    const who = await call(t, '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST',
      token: ro,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    const user = pick(who.json, 'status', 'userInfo', 'username') as string;
    const p = await call(t, '/api/v1/nodes/some-node/status', {
      method: 'PATCH',
      token: ro,
      contentType: 'application/merge-patch+json',
      body: {},
    });
    expect(p.status).toBe(403);
    expect(p.json.message).toBe(
      `nodes "some-node" is forbidden: User "${user}" cannot patch resource "nodes/status" in API group "" at the cluster scope`,
    );
    const cm = await call(t, '/api/v1/namespaces/kube-system/configmaps', { token: ro });
    expect(cm.json.message).toBe(
      `configmaps is forbidden: User "${user}" cannot list resource "configmaps" in API group "" in the namespace "kube-system"`,
    );
    const ssar = async (verb: string, subresource = '') =>
      pick(
        (
          await call(t, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
            method: 'POST',
            token: ro,
            body: {
              apiVersion: 'authorization.k8s.io/v1',
              kind: 'SelfSubjectAccessReview',
              spec: { resourceAttributes: { verb, group: '', resource: 'nodes', subresource } },
            },
          })
        ).json,
        'status',
        'allowed',
      );
    expect(await ssar('watch')).toBe(true);
    expect(await ssar('patch', 'status')).toBe(false);
  });

  it('the admin user may create CRDs (SelfSubjectAccessReview)', async () => {
    const r = await call(t, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      method: 'POST',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            verb: 'create',
            group: 'apiextensions.k8s.io',
            resource: 'customresourcedefinitions',
          },
        },
      },
    });
    expect(r.status).toBe(201);
    expect(pick(r.json, 'status', 'allowed')).toBe(true);
  });
});

describe('errors and discovery', () => {
  it('unknown paths and groups are text 404; unknown core resources are JSON 404', async () => {
    const p = await call(t, '/nonsense');
    expect(p.status).toBe(404);
    expect(p.text).toBe('404 page not found\n');
    expect(String(p.headers['content-type'])).toMatch(/^text\/plain/);
    expect((await call(t, '/apis/nope.example.dev/v1/things')).text).toBe('404 page not found\n');
    const r = await call(t, '/api/v1/foos');
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      message: 'the server could not find the requested resource',
    });
  });

  it('serves aggregated discovery v2 when asked, legacy lists otherwise', async () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    const agg = await call(t, '/api', { accept });
    expect(agg.headers['content-type']).toBe(
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    );
    expect(agg.json.kind).toBe('APIGroupDiscoveryList');
    const legacy = await call(t, '/apis');
    expect(legacy.json.kind).toBe('APIGroupList');
    const v1 = await call(t, '/api/v1');
    const nodes = (v1.json.resources as { name: string; shortNames?: string[] }[]).find(
      (r) => r.name === 'nodes',
    );
    expect(nodes?.shortNames).toEqual(['no']);
  });
});
