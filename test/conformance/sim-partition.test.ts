// Sim-only: the partition control (one client's requests fail until healed) and the request log naming
// who sent each request, which a leader-election test needs to assert "never two writers".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSim } from '../../sim/index.ts';
import { startSim } from '../../sim/index.ts';
import type { Target } from './client.ts';
import { call, pick, until, watch } from './client.ts';

let sim: RunningSim;
let t: Target;
const sa = (name: string) => `/api/v1/namespaces/default/serviceaccounts/${name}`;
const tokenFor = async (name: string) => {
  await call(t, '/api/v1/namespaces/default/serviceaccounts', {
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
  });
  const r = await call(t, `${sa(name)}/token`, {
    method: 'POST',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
  });
  return String(pick(r.json, 'status', 'token'));
};

beforeAll(async () => {
  sim = await startSim({ scenario: 'empty' });
  t = { server: sim.url, ca: sim.caPem, token: sim.tokens.admin };
});
afterAll(async () => {
  await sim.close();
});

describe('partition control and request log', () => {
  it('a partitioned token gets connection resets; another token of the same ServiceAccount does not', async () => {
    const a = await tokenFor('ctl');
    const b = String(
      pick(
        (
          await call(t, `${sa('ctl')}/token`, {
            method: 'POST',
            body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
          })
        ).json,
        'status',
        'token',
      ),
    );
    sim.control.partition(a, 'reset');
    await expect(call(t, '/version', { token: a })).rejects.toThrow();
    expect((await call(t, '/version', { token: b })).status).toBe(200);
    sim.control.heal(a);
    expect((await call(t, '/version', { token: a })).status).toBe(200);
  });

  it('503 and timeout partitions by user name; heal ends a held request', async () => {
    const tok = await tokenFor('other');
    const user = 'system:serviceaccount:default:other';
    sim.control.partition(user, '503');
    const r = await call(t, '/version', { token: tok });
    expect(r.status).toBe(503);
    expect(r.json).toMatchObject({ kind: 'Status', code: 503, reason: 'ServiceUnavailable' });
    sim.control.partition(user, 'timeout');
    const held = call(t, '/version', { token: tok });
    let settled = false;
    held.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    expect((await call(t, '/version')).status).toBe(200);
    expect(settled).toBe(false);
    sim.control.heal(user);
    await expect(held).rejects.toThrow();
    expect((await call(t, '/version', { token: tok })).status).toBe(200);
  });

  it("partitioning cuts the client's open watch at once", async () => {
    const tok = await tokenFor('watcher');
    await call(t, '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      method: 'POST',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'watcher-nodes' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'sim-node-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'watcher', namespace: 'default' }],
      },
    });
    const w = await watch({ ...t, token: tok }, '/api/v1/nodes?watch=1&timeoutSeconds=300');
    expect(w.status).toBe(200);
    const watchEnded = () =>
      sim.control
        .requestLog()
        .some((e) => e.user === 'system:serviceaccount:default:watcher' && e.path.includes('watch=1'));
    expect(watchEnded()).toBe(false);
    sim.control.partition(tok, 'reset');
    await until(watchEnded);
    w.stop();
    sim.control.heal(tok);
  });

  it('the log names user, credential, user agent and the sim time of every request', async () => {
    sim.control.resetRequestLog();
    const tok = await tokenFor('writer');
    sim.control.partition(tok, 'reset');
    await expect(call(t, '/version', { token: tok, headers: { 'User-Agent': 'ctl/a' } })).rejects.toThrow();
    sim.control.heal(tok);
    sim.control.advanceClock(5_000);
    await call(t, '/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      token: tok,
      headers: { 'User-Agent': 'ctl/a' },
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
    });
    const jti = JSON.parse(Buffer.from(tok.split('.')[1] ?? '', 'base64url').toString('utf8')).jti;
    const mine = sim.control.requestLog().filter((e) => e.credential === `JTI=${jti}`);
    expect(mine.map((e) => [e.method, e.status, e.user, e.userAgent])).toEqual([
      ['GET', 0, 'system:serviceaccount:default:writer', 'ctl/a'],
      ['POST', 403, 'system:serviceaccount:default:writer', 'ctl/a'],
    ]);
    expect((mine[1]?.at ?? 0) - (mine[0]?.at ?? 0)).toBeGreaterThanOrEqual(5_000);
    const admin = sim.control.requestLog().find((e) => e.user === 'sim-admin');
    expect(admin?.credential).toBe('sim-admin');
  });
});
