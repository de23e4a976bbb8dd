// The controller in "in-cluster" mode against the sim: KUBERNETES_SERVICE_HOST/PORT and a service-account
// folder (token, ca.crt, namespace). It serves /healthz, /readyz and /metrics, keeps working when the
// projected token is rotated (re-read after the 401 of the old one), and releases the lease on stop.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inClusterContext } from '../../main/controller/in-cluster.ts';
import { systemClock } from '../../main/kube/clock.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { DEFAULT_CRD_GROUP, installWriteback } from '../../main/writeback/index.ts';
import { startCli } from '../helpers/cli-harness.ts';
import { pollUntil } from '../helpers/poll.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';

let s: SimContext;
let sa: string;

beforeAll(async () => {
  s = await startSimContext();
  const admin = new ContextClient(s.context('sim-admin'));
  await installWriteback(admin, { group: DEFAULT_CRD_GROUP, clock: systemClock });
  admin.close();
  sa = path.join(s.dir, 'serviceaccount');
  fs.mkdirSync(sa);
  fs.writeFileSync(path.join(sa, 'token'), s.sim.tokens.admin);
  fs.writeFileSync(path.join(sa, 'ca.crt'), s.sim.caPem);
  fs.writeFileSync(path.join(sa, 'namespace'), 'default\n');
});
afterAll(async () => {
  await s.cleanup();
});

describe('in-cluster configuration', () => {
  const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };

  it('builds a token-file context from the service-account folder', () => {
    const got = inClusterContext(env, sa);
    if (typeof got === 'string') throw new Error(got);
    expect(got.namespace).toBe('default');
    expect(got.context.cluster?.cluster).toMatchObject({
      server: 'https://10.96.0.1:443',
      caFile: path.join(sa, 'ca.crt'),
    });
    expect(got.context.user?.user.authProvider).toEqual({
      name: 'tokenFile',
      config: { tokenFile: path.join(sa, 'token') },
    });
  });

  it('puts an IPv6 service address in brackets', () => {
    const got = inClusterContext({ KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' }, sa);
    expect(typeof got === 'string' ? got : got.context.cluster?.cluster.server).toBe('https://[fd00::1]:443');
  });

  it.each([
    [{}, 'not running in a cluster'],
    [{ KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '99999' }, 'is not a port number'],
    [{ KUBERNETES_SERVICE_HOST: 'a/b', KUBERNETES_SERVICE_PORT: '443' }, 'is not a host name or address'],
  ])('refuses %j with one sentence', (e, sentence) => {
    expect(inClusterContext(e, sa)).toContain(sentence);
  });

  it('names the service-account file it cannot read', () => {
    expect(inClusterContext(env, path.join(s.dir, 'missing'))).toMatch(
      /the service-account file .*token cannot be read \(ENOENT\)/,
    );
  });
});

describe('gpu-fleet controller in a pod', () => {
  it('serves the ops endpoints, survives a token rotation and releases the lease on stop', async () => {
    const run = startCli(
      [
        'controller',
        `--serviceaccount-dir=${sa}`,
        '--id=pod-a',
        '--metrics-addr=127.0.0.1:0',
        '--lease-duration=4s',
        '--renew-deadline=3s',
        '--retry-period=500ms',
      ],
      { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: new URL(s.sim.url).port },
    );
    const lines = () => run.lines().map((l) => JSON.parse(l) as Record<string, unknown>);
    const said = (prefix: string) => lines().some((l) => String(l.msg).startsWith(prefix));
    await pollUntil(() => said('became leader'), 'leadership', { limitMs: 20_000 });
    const starting = lines().find((l) => l.msg === 'starting') as Record<string, string>;
    expect(starting).toMatchObject({ config: 'in-cluster service account', leaseNamespace: 'default' });
    const base = `http://${starting.metrics}`;
    await pollUntil(() => said('node cache synced'), 'the first sync', { limitMs: 20_000 });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await fetch(`${base}/healthz`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/^gpu_fleet_leader 1$/m);
    expect(metrics).toMatch(/^gpu_fleet_gpu_nodes\{state="unknown"\} \d+$/m);
    expect(metrics).toMatch(/^gpu_fleet_synced 1$/m);

    // The kubelet rotates the projected token; the old one stops working.
    fs.writeFileSync(path.join(sa, 'token'), s.sim.tokens.revocable);
    s.sim.control.revokeToken('admin');
    s.sim.control.resetRequestLog();
    const renewedWithNewToken = () =>
      s.sim.control
        .requestLog()
        .some((e) => e.user === 'sim-revocable' && e.method === 'PUT' && e.status === 200);
    await pollUntil(renewedWithNewToken, 'a lease renew with the rotated token', { limitMs: 20_000 });
    expect(said('stopped leading')).toBe(false);

    run.stop();
    expect(await run.exit).toBe(0);
    expect(said('released the lease')).toBe(true);
    expect(said('stopped')).toBe(true);
  });
});
