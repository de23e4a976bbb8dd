// Conformance: ServiceAccounts and TokenRequest (transcript 11, steps 17–23): the token's shape and expiry
// timestamp, the 422 below 10 minutes, 404 for a missing ServiceAccount, who the token authenticates as;
// sim-only: a token of a deleted ServiceAccount or past its expiry (the sim's clock) is 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, pick, uniq } from './client.ts';

let t: Target;
const ns = uniq('conf-sa-ns');
const sa = 'gpu-fleet-agent';
const saPath = `/api/v1/namespaces/${ns}/serviceaccounts`;
const tokenPath = (name = sa) => `${saPath}/${name}/token`;
const request = (spec: Record<string, unknown>, name = sa) =>
  call(t, tokenPath(name), {
    method: 'POST',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec },
  });
const onlySim = !process.env.GPU_FLEET_CONFORMANCE_KUBECONFIG;

beforeAll(async () => {
  t = await connect();
  await call(t, '/api/v1/namespaces', {
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
  });
});
afterAll(async () => {
  await call(t, `/api/v1/namespaces/${ns}`, { method: 'DELETE' });
  await t.sim?.close();
});

describe('serviceaccounts and tokenrequest', () => {
  it('creating a ServiceAccount in a namespace that does not exist is 404 naming the namespace', async () => {
    const missing = uniq('nope');
    const r = await call(t, `/api/v1/namespaces/${missing}/serviceaccounts`, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa } },
    });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `namespaces "${missing}" not found`,
      reason: 'NotFound',
      details: { name: missing, kind: 'namespaces' },
      code: 404,
    });
  });

  it('a ServiceAccount gets only metadata; a TokenRequest answers the token and its expiry', async () => {
    const c = await call(t, saPath, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: ns } },
    });
    expect(c.status).toBe(201);
    expect(Object.keys(c.json)).toEqual(['kind', 'apiVersion', 'metadata']);
    const r = await request({ expirationSeconds: 3600 });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: sa, namespace: ns },
      spec: { audiences: ['https://kubernetes.default.svc'], expirationSeconds: 3600, boundObjectRef: null },
    });
    expect(pick(r.json, 'metadata', 'managedFields', 0)).toMatchObject({
      operation: 'Update',
      apiVersion: 'authentication.k8s.io/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:expirationSeconds': {} } },
      subresource: 'token',
    });
    const created = Date.parse(String(pick(r.json, 'metadata', 'creationTimestamp')));
    const expires = String(pick(r.json, 'status', 'expirationTimestamp'));
    expect(expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(expires) - created).toBe(3_600_000);
    const token = String(pick(r.json, 'status', 'token'));
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    expect(payload).toMatchObject({
      aud: ['https://kubernetes.default.svc'],
      iss: 'https://kubernetes.default.svc',
      sub: `system:serviceaccount:${ns}:${sa}`,
      'kubernetes.io': { namespace: ns, serviceaccount: { name: sa, uid: pick(c.json, 'metadata', 'uid') } },
    });
    expect(payload.exp - payload.iat).toBe(3600);
  });

  it('an empty spec gets the defaults; under 10 minutes is 422; a missing ServiceAccount 404', async () => {
    const d = await request({});
    expect(d.status).toBe(201);
    expect(pick(d.json, 'spec', 'expirationSeconds')).toBe(3600);
    const short = await request({ expirationSeconds: 60 });
    expect(short.status).toBe(422);
    expect(short.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      reason: 'Invalid',
      details: {
        group: 'authentication.k8s.io',
        kind: 'TokenRequest',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: 60: may not specify a duration less than 10 minutes',
            field: 'spec.expirationSeconds',
          },
        ],
      },
      code: 422,
    });
    const nope = await request({ expirationSeconds: 3600 }, 'nope');
    expect(nope.status).toBe(404);
    expect(nope.json).toMatchObject({
      message: 'serviceaccounts "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'serviceaccounts' },
    });
  });

  it('the token authenticates as the ServiceAccount: 403 before RBAC, SelfSubjectReview names it', async () => {
    const token = String(pick((await request({})).json, 'status', 'token'));
    const nodes = await call(t, '/api/v1/nodes', { token });
    expect(nodes.status).toBe(403);
    expect(nodes.json.message).toBe(
      `nodes is forbidden: User "system:serviceaccount:${ns}:${sa}" cannot list resource "nodes" in API group "" at the cluster scope`,
    );
    const who = await call(t, '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST',
      token,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(who.status).toBe(201);
    const info = pick(who.json, 'status', 'userInfo') as Record<string, unknown>;
    expect(info.username).toBe(`system:serviceaccount:${ns}:${sa}`);
    expect(info.groups).toEqual([
      'system:serviceaccounts',
      `system:serviceaccounts:${ns}`,
      'system:authenticated',
    ]);
    const jti = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).jti;
    expect(info.extra).toEqual({ 'authentication.kubernetes.io/credential-id': [`JTI=${jti}`] });
  });

  it.runIf(onlySim)('a token is 401 once the sim clock passes its expiry', async () => {
    const token = String(pick((await request({ expirationSeconds: 600 })).json, 'status', 'token'));
    const who = () =>
      call(t, '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        method: 'POST',
        token,
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      });
    expect((await who()).status).toBe(201);
    t.sim?.control.advanceClock(599_000);
    expect((await who()).status).toBe(201);
    t.sim?.control.advanceClock(1_000);
    const r = await who();
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it.runIf(onlySim)('a token of a deleted (or re-created) ServiceAccount is 401', async () => {
    const token = String(pick((await request({})).json, 'status', 'token'));
    expect((await call(t, '/api', { token })).status).toBe(200);
    expect((await call(t, `${saPath}/${sa}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(t, '/api', { token })).status).toBe(401);
    await call(t, saPath, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa } },
    });
    expect((await call(t, '/api', { token })).status).toBe(401);
  });
});
