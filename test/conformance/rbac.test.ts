// Conformance: RBAC from stored Roles/ClusterRoles and their bindings (transcript 11, steps 22–48; the 403
// texts of 08): a ServiceAccount token gains and loses permissions as bindings are created and deleted,
// scope wording, subresources, resourceNames, "*", a RoleBinding to a ClusterRole, non-resource URLs,
// SelfSubjectAccessReview/RulesReview answering from the same rules, and the objects' validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, pick, uniq } from './client.ts';

let t: Target;
let token = '';
const ns = uniq('conf-rbac-ns');
const sa = 'gpu-fleet-agent';
const user = `system:serviceaccount:${ns}:${sa}`;
const rbac = '/apis/rbac.authorization.k8s.io/v1';
const crName = uniq('conf-node-reader');
const created: string[] = [];
const post = async (path: string, body: Record<string, unknown>) => {
  const r = await call(t, path, { method: 'POST', body });
  if (r.status === 201) created.push(`${path}/${String(pick(body, 'metadata', 'name'))}`);
  return r;
};
const asSa = (path: string, o: { method?: string; body?: unknown; contentType?: string } = {}) =>
  call(t, path, { ...o, token });
const forbidden = (message: string, details: Record<string, string>) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason: 'Forbidden',
  details,
  code: 403,
});
const review = (attrs: Record<string, string>, tok = token) =>
  call(t, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    method: 'POST',
    token: tok,
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: attrs },
    },
  });

beforeAll(async () => {
  t = await connect();
  await call(t, '/api/v1/namespaces', {
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
  });
  await call(t, `/api/v1/namespaces/${ns}/serviceaccounts`, {
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa } },
  });
  const r = await call(t, `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`, {
    method: 'POST',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
  });
  token = String(pick(r.json, 'status', 'token'));
});
afterAll(async () => {
  for (const p of created.reverse()) await call(t, p, { method: 'DELETE' });
  await call(t, `/api/v1/namespaces/${ns}`, { method: 'DELETE' });
  await t.sim?.close();
});

describe('rbac', () => {
  it('before any binding: 403 with the namespaced wording; discovery is allowed', async () => {
    const r = await asSa(`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/gpu-fleet-leader`);
    expect(r.status).toBe(403);
    expect(r.json).toEqual(
      forbidden(
        `leases.coordination.k8s.io "gpu-fleet-leader" is forbidden: User "${user}" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "${ns}"`,
        { name: 'gpu-fleet-leader', group: 'coordination.k8s.io', kind: 'leases' },
      ),
    );
    expect((await asSa('/apis')).status).toBe(200);
    expect((await asSa('/version')).status).toBe(200);
  });

  it('a ClusterRole and ClusterRoleBinding grant nodes get/list/watch, stored as the real server stores them', async () => {
    const cr = await post(`${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: crName },
      rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }],
    });
    expect(cr.status).toBe(201);
    expect(cr.json.rules).toEqual([
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['nodes'] },
    ]);
    const crb = await post(`${rbac}/clusterrolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: crName },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: crName },
      subjects: [{ kind: 'ServiceAccount', name: sa, namespace: ns }],
    });
    expect(crb.status).toBe(201);
    expect(Object.keys(crb.json)).toEqual(['kind', 'apiVersion', 'metadata', 'subjects', 'roleRef']);
    expect(crb.json.subjects).toEqual([{ kind: 'ServiceAccount', name: sa, namespace: ns }]);
    expect((await asSa('/api/v1/nodes')).status).toBe(200);
    const del = await asSa('/api/v1/nodes/does-not-matter', { method: 'DELETE' });
    expect(del.json).toEqual(
      forbidden(
        `nodes "does-not-matter" is forbidden: User "${user}" cannot delete resource "nodes" in API group "" at the cluster scope`,
        { name: 'does-not-matter', kind: 'nodes' },
      ),
    );
    const ssar = await review({ verb: 'list', resource: 'nodes' });
    expect(pick(ssar.json, 'status')).toEqual({
      allowed: true,
      reason: `RBAC: allowed by ClusterRoleBinding "${crName}" of ClusterRole "${crName}" to ServiceAccount "${sa}/${ns}"`,
    });
  });

  it('a Role and RoleBinding grant only their verbs, only in their namespace', async () => {
    await post(`${rbac}/namespaces/${ns}/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'agent' },
      rules: [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'patch'] },
      ],
    });
    const rb = await post(`${rbac}/namespaces/${ns}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'agent' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'agent' },
      subjects: [{ kind: 'ServiceAccount', name: sa, namespace: ns }],
    });
    expect(rb.status).toBe(201);
    const leases = `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;
    const c = await asSa(leases, {
      method: 'POST',
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'l' },
        spec: { holderIdentity: 'a' },
      },
    });
    expect(c.status).toBe(201);
    const cur = (await asSa(`${leases}/l`)).json;
    expect((await asSa(`${leases}/l`, { method: 'PUT', body: cur })).status).toBe(200);
    const patch = await asSa(`${leases}/l`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { spec: { holderIdentity: 'b' } },
    });
    expect(patch.json.message).toBe(
      `leases.coordination.k8s.io "l" is forbidden: User "${user}" cannot patch resource "leases" in API group "coordination.k8s.io" in the namespace "${ns}"`,
    );
    const list = await asSa(leases);
    expect(list.json).toEqual(
      forbidden(
        `leases.coordination.k8s.io is forbidden: User "${user}" cannot list resource "leases" in API group "coordination.k8s.io" in the namespace "${ns}"`,
        { group: 'coordination.k8s.io', kind: 'leases' },
      ),
    );
    const other = await asSa('/api/v1/namespaces/kube-system/configmaps/does-not-matter');
    expect(other.json).toEqual(
      forbidden(
        `configmaps "does-not-matter" is forbidden: User "${user}" cannot get resource "configmaps" in API group "" in the namespace "kube-system"`,
        { name: 'does-not-matter', kind: 'configmaps' },
      ),
    );
    const ssar = await review({
      verb: 'update',
      group: 'coordination.k8s.io',
      resource: 'leases',
      namespace: ns,
    });
    expect(pick(ssar.json, 'status', 'reason')).toBe(
      `RBAC: allowed by RoleBinding "agent/${ns}" of Role "agent" to ServiceAccount "${sa}/${ns}"`,
    );
    expect(
      pick(
        (await review({ verb: 'delete', group: 'coordination.k8s.io', resource: 'leases', namespace: ns }))
          .json,
        'status',
      ),
    ).toEqual({
      allowed: false,
    });
  });

  it('an apply that would create its object also needs create on that name', async () => {
    // A namespace of its own: the "agent" Role above grants create on every ConfigMap in `ns`.
    const ns2 = uniq('conf-rbac-apply');
    await call(t, '/api/v1/namespaces', {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns2 } },
    });
    created.push(`/api/v1/namespaces/${ns2}`);
    const role = uniq('conf-apply');
    const roles = `${rbac}/namespaces/${ns2}/roles`;
    const rules = (verbs: string[]) => [
      { apiGroups: [''], resources: ['configmaps'], verbs, resourceNames: ['cm-apply'] },
    ];
    await call(t, roles, {
      method: 'POST',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: role },
        rules: rules(['get', 'patch']),
      },
    });
    await call(t, `${rbac}/namespaces/${ns2}/rolebindings`, {
      method: 'POST',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: role },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role },
        subjects: [{ kind: 'ServiceAccount', name: sa, namespace: ns }],
      },
    });
    const cm = `/api/v1/namespaces/${ns2}/configmaps/cm-apply`;
    const apply = (query = '') =>
      asSa(`${cm}?fieldManager=conf${query}`, {
        method: 'PATCH',
        contentType: 'application/apply-patch+yaml',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-apply' }, data: { a: '1' } },
      });
    // The same sentence as any refusal, with the verb create (a real server's; the sim once left it empty).
    const denied = forbidden(
      `configmaps "cm-apply" is forbidden: User "system:serviceaccount:${ns}:${sa}" cannot create resource "configmaps" in API group "" in the namespace "${ns2}"`,
      {
        name: 'cm-apply',
        kind: 'configmaps',
      },
    );
    expect((await apply()).json).toEqual(denied);
    expect((await apply('&dryRun=All')).json).toEqual(denied);
    expect((await asSa(cm)).status).toBe(404);
    const cur = (await call(t, `${roles}/${role}`)).json as Record<string, unknown>;
    expect(
      (
        await call(t, `${roles}/${role}`, {
          method: 'PUT',
          body: { ...cur, rules: rules(['get', 'patch', 'create']) },
        })
      ).status,
    ).toBe(200);
    const made = await apply();
    expect(made.status).toBe(201);
    // Once the object exists, patch alone is enough again.
    await call(t, `${roles}/${role}`, {
      method: 'PUT',
      body: { ...(await call(t, `${roles}/${role}`)).json, rules: rules(['get', 'patch']) },
    });
    expect((await apply()).status).toBe(200);
  });

  it('subresources, resourceNames, "*" and a RoleBinding to a ClusterRole', async () => {
    const name = uniq('conf-sub');
    await post(`${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name },
      rules: [
        { apiGroups: ['gpufleet.example.dev'], resources: ['gpuinventories/status'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['pods/proxy'], verbs: ['get'], resourceNames: ['dcgm'] },
        { apiGroups: ['apps'], resources: ['*'], verbs: ['*'] },
      ],
    });
    await post(`${rbac}/namespaces/${ns}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ kind: 'ServiceAccount', name: sa }],
    });
    const allowed = async (attrs: Record<string, string>) =>
      pick((await review(attrs)).json, 'status', 'allowed');
    const inv = { group: 'gpufleet.example.dev', resource: 'gpuinventories', namespace: ns };
    expect(await allowed({ ...inv, verb: 'patch', subresource: 'status', name: 'x' })).toBe(true);
    expect(await allowed({ ...inv, verb: 'patch', name: 'x' })).toBe(false);
    const proxy = { resource: 'pods', subresource: 'proxy', namespace: ns, verb: 'get' };
    expect(await allowed({ ...proxy, name: 'dcgm' })).toBe(true);
    expect(await allowed({ ...proxy, name: 'other' })).toBe(false);
    expect(await allowed({ ...proxy })).toBe(false);
    expect(await allowed({ group: 'apps', resource: 'deployments', verb: 'delete', namespace: ns })).toBe(
      true,
    );
    expect(
      await allowed({ group: 'apps', resource: 'deployments', verb: 'delete', namespace: 'default' }),
    ).toBe(false);
    const r = await review({ group: 'apps', resource: 'deployments', verb: 'create', namespace: ns });
    expect(pick(r.json, 'status', 'reason')).toBe(
      `RBAC: allowed by RoleBinding "${name}/${ns}" of ClusterRole "${name}" to ServiceAccount "${sa}/${ns}"`,
    );
  });

  it('nonResourceURLs: exact and trailing "*"; the 403 names the path', async () => {
    expect((await asSa('/metrics')).json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `forbidden: User "${user}" cannot get path "/metrics"`,
      reason: 'Forbidden',
      details: {},
      code: 403,
    });
    const name = uniq('conf-urls');
    await post(`${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name },
      rules: [{ nonResourceURLs: ['/metrics', '/logs/*'], verbs: ['get'] }],
    });
    await post(`${rbac}/clusterrolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ kind: 'Group', name: `system:serviceaccounts:${ns}` }],
    });
    const nr = (path: string) =>
      call(t, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
        method: 'POST',
        token,
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { nonResourceAttributes: { verb: 'get', path } },
        },
      });
    expect(pick((await nr('/metrics')).json, 'status', 'allowed')).toBe(true);
    expect(pick((await nr('/logs/a/b')).json, 'status', 'allowed')).toBe(true);
    expect(pick((await nr('/metricsx')).json, 'status', 'allowed')).toBe(false);
  });

  it('SelfSubjectRulesReview lists what the bindings give in the namespace', async () => {
    const rr = async (namespace: string) =>
      (
        await call(t, '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
          method: 'POST',
          token,
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectRulesReview',
            spec: { namespace },
          },
        })
      ).json;
    const inNs = pick(await rr(ns), 'status', 'resourceRules') as { resources: string[] }[];
    expect(inNs.flatMap((r) => r.resources)).toEqual(
      expect.arrayContaining(['selfsubjectreviews', 'nodes', 'leases', 'configmaps']),
    );
    const inDefault = pick(await rr('default'), 'status', 'resourceRules') as { resources: string[] }[];
    expect(inDefault.flatMap((r) => r.resources)).not.toContain('leases');
    expect(inDefault.flatMap((r) => r.resources)).toContain('nodes');
  });

  it('deleting the ClusterRoleBinding takes the permission away at once', async () => {
    expect((await call(t, `${rbac}/clusterrolebindings/${crName}`, { method: 'DELETE' })).status).toBe(200);
    const r = await asSa('/api/v1/nodes');
    expect(r.json).toEqual(
      forbidden(
        `nodes is forbidden: User "${user}" cannot list resource "nodes" in API group "" at the cluster scope`,
        { kind: 'nodes' },
      ),
    );
  });

  it('RBAC objects are validated like the real server validates them', async () => {
    const bad = await call(t, `${rbac}/namespaces/${ns}/roles`, {
      method: 'POST',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'bad' },
        rules: [
          { resources: ['pods'], verbs: [] },
          { nonResourceURLs: ['/x'], verbs: ['get'] },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe(
      'Role.rbac.authorization.k8s.io "bad" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, rules[0].apiGroups: Required value: resource rules must supply at least one api group, rules[1].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs]',
    );
    const crb = await call(t, `${rbac}/clusterrolebindings`, {
      method: 'POST',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'bad' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' },
        subjects: [{ kind: 'ServiceAccount', name: sa }],
      },
    });
    expect(crb.json.message).toBe(
      'ClusterRoleBinding.rbac.authorization.k8s.io "bad" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value]',
    );
    const rb = `${rbac}/namespaces/${ns}/rolebindings/agent`;
    const cur = (await call(t, rb)).json as Record<string, Record<string, unknown>>;
    cur.roleRef = { ...cur.roleRef, name: 'other' };
    const change = await call(t, rb, { method: 'PUT', body: cur });
    expect(change.status).toBe(422);
    expect(change.json.message).toBe(
      'RoleBinding.rbac.authorization.k8s.io "agent" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"other"}: cannot change roleRef',
    );
  });

  it("the sim's fixed users keep their permissions", async () => {
    const ro = t.readonlyToken ?? '';
    expect((await call(t, '/api/v1/nodes', { token: ro })).status).toBe(200);
    expect((await call(t, '/api/v1/namespaces/default/configmaps', { token: ro })).status).toBe(403);
    expect(pick((await review({ verb: 'watch', resource: 'nodes' }, ro)).json, 'status')).toMatchObject({
      allowed: true,
    });
    expect((await call(t, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).status).toBe(200);
  });
});
