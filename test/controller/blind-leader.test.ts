// A leader whose node access is revoked by RBAC (403 on every relist; its Lease Role still works) must
// not keep the Lease: it stops renewing and releases it, /readyz and gpu_fleet_synced go false and say
// why, and its freshness mark stops moving. The same for a leader whose status writes are refused.
// One controller in this process runs with a token of the manifests' ServiceAccount and exactly their
// RBAC, on a ManualClock, against the sim over HTTPS.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultImage } from '../../main/cli/commands/controller.ts';
import { Controller } from '../../main/controller/controller.ts';
import { inClusterContext } from '../../main/controller/in-cluster.ts';
import { DEFAULT_TIMING } from '../../main/controller/leader-decision.ts';
import {
  DEFAULT_METRICS_NAMESPACE,
  DEFAULT_NAMESPACE,
  type ManifestOptions,
  manifestFiles,
} from '../../main/controller/manifests.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { Logger } from '../../main/log/logger.ts';
import { DEFAULT_CONFIGMAP_NAMESPACE, DEFAULT_CRD_GROUP } from '../../main/writeback/index.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';

const O: ManifestOptions = {
  namespace: DEFAULT_NAMESPACE,
  image: defaultImage(),
  group: DEFAULT_CRD_GROUP,
  replicas: 1,
  metricsNamespace: DEFAULT_METRICS_NAMESPACE,
};
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const LEASE = `/apis/coordination.k8s.io/v1/namespaces/${O.namespace}/leases/gpu-fleet-controller`;
const FRESH = 'gpufleet.io/status-fresh-at';
const SA_USER = `system:serviceaccount:${O.namespace}:gpu-fleet-controller`;

interface Run {
  s: SimContext;
  admin: ContextClient;
  clock: ManualClock;
  controller: Controller;
  logs: { msg: string }[];
  lease(): Promise<{ spec: { holderIdentity?: string }; metadata: { annotations?: Record<string, string> } }>;
  /** Virtual steps of 50 ms with a real pause after each, until `until` or `ms` passed. */
  run(ms: number, until?: () => boolean | Promise<boolean>): Promise<void>;
  close(): Promise<void>;
}

let current: Run | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

async function send(c: ContextClient, method: string, p: string, body?: unknown, type = 'application/json') {
  const res = await c.request(method, p, {
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { 'Content-Type': type, Accept: 'application/json' },
  });
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

/** The manifests' Namespace, CRD, ServiceAccount and RBAC, and a controller running as that account. */
async function start(): Promise<Run> {
  const s = await startSimContext();
  const admin = new ContextClient(s.context('sim-admin'));
  const plural: Record<string, string> = {
    Namespace: '/api/v1/namespaces',
    CustomResourceDefinition: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    ServiceAccount: `/api/v1/namespaces/${O.namespace}/serviceaccounts`,
    ClusterRole: `${RBAC}/clusterroles`,
    ClusterRoleBinding: `${RBAC}/clusterrolebindings`,
    // Roles and their bindings sit in the namespace each names (the ConfigMap's is in kube-system).
    Role: `${RBAC}/namespaces/NS/roles`,
    RoleBinding: `${RBAC}/namespaces/NS/rolebindings`,
  };
  for (const [, docs] of manifestFiles(O))
    for (const doc of docs as { kind: string; metadata: { name: string; namespace?: string } }[]) {
      const base = plural[doc.kind]?.replace('/NS/', `/${doc.metadata.namespace ?? O.namespace}/`);
      if (base === undefined) continue; // the Deployment and the NetworkPolicy play no part here
      await send(
        admin,
        'PATCH',
        `${base}/${doc.metadata.name}?fieldManager=test&force=true`,
        doc,
        'application/apply-patch+yaml',
      );
    }
  // The CRD must be Established before the controller checks it.
  await new Promise((r) => setTimeout(r, 50));
  const tr = await send(
    admin,
    'POST',
    `/api/v1/namespaces/${O.namespace}/serviceaccounts/gpu-fleet-controller/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    },
  );
  const sa = path.join(s.dir, 'sa');
  fs.mkdirSync(sa, { recursive: true });
  fs.writeFileSync(path.join(sa, 'token'), String((tr.status as { token: string }).token));
  fs.writeFileSync(path.join(sa, 'ca.crt'), s.sim.caPem);
  fs.writeFileSync(path.join(sa, 'namespace'), O.namespace);
  const found = inClusterContext(
    { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: new URL(s.sim.url).port },
    sa,
  );
  if (typeof found === 'string') throw new Error(found);
  const clock = new ManualClock(Date.now());
  const logs: { msg: string }[] = [];
  const controller = new Controller({
    context: found.context,
    identity: 'blind-0',
    leaseNamespace: O.namespace,
    // Where the manifests point it (--configmap-namespace) and grant it the ConfigMap.
    writeback: { group: O.group, configMapNamespace: DEFAULT_CONFIGMAP_NAMESPACE },
    logger: new Logger({ write: (l) => logs.push(JSON.parse(l)) }, 'info', 'controller', () => clock.now()),
    clock,
    random: () => 0,
  });
  const r: Run = {
    s,
    admin,
    clock,
    controller,
    logs,
    lease: async () => (await send(admin, 'GET', LEASE)) as unknown as Awaited<ReturnType<Run['lease']>>,
    async run(ms, until) {
      for (let passed = 0; passed < ms; passed += 50) {
        clock.advance(50);
        await new Promise((res) => setTimeout(res, 8));
        if (until && (await until())) return;
      }
    },
    async close() {
      await controller.stop();
      admin.close();
      await s.cleanup();
    },
  };
  current = r;
  controller.start();
  await r.run(20_000, () => controller.leading && controller.readiness() === null);
  // The first write of the status (write-back coalesces for 5 s), which makes the mark.
  await r.run(30_000, async () => (await r.lease()).metadata.annotations?.[FRESH] !== undefined);
  return r;
}

const synced = async (c: Controller) => {
  await c.metrics.settled();
  return /^gpu_fleet_synced 1$/m.test(c.metrics.rendered().body.toString());
};

describe('a blind leader gives up its Lease', () => {
  it('node access revoked (403 on every relist): it releases the Lease, /readyz and gpu_fleet_synced go false saying why, the mark stops', async () => {
    const r = await start();
    expect(r.controller.leading).toBe(true);
    expect(await synced(r.controller)).toBe(true);
    // The ClusterRole loses its nodes rule; the Lease Role is untouched.
    const role = await send(r.admin, 'GET', `${RBAC}/clusterroles/gpu-fleet-controller`);
    const rules = (role.rules as { resources: string[] }[]).filter((x) => !x.resources.includes('nodes'));
    await send(r.admin, 'PUT', `${RBAC}/clusterroles/gpu-fleet-controller`, { ...role, rules });
    // The watch is cut (as by an API server restart); every relist now answers 403.
    r.s.sim.control.partition(SA_USER, 'reset');
    r.s.sim.control.heal(SA_USER);
    const markBefore = (await r.lease()).metadata.annotations?.[FRESH];
    const cutAt = r.clock.now();
    await r.run(30_000, async () => (await r.lease()).spec.holderIdentity === '');
    const lease = await r.lease();
    expect(lease.spec.holderIdentity).toBe('');
    expect(r.controller.leading).toBe(false);
    // It gave up after the renew deadline, not before, and well within the lease duration after it.
    expect(r.clock.now() - cutAt).toBeGreaterThan(DEFAULT_TIMING.renewDeadlineMs);
    expect(r.clock.now() - cutAt).toBeLessThan(
      DEFAULT_TIMING.renewDeadlineMs + DEFAULT_TIMING.leaseDurationMs,
    );
    expect(lease.metadata.annotations?.[FRESH]).toBe(markBefore);
    expect(r.controller.readiness()).toMatch(
      /^the node watch is forbidden .*longer than the renew deadline\)$/,
    );
    const stopped = r.logs.find((l) => l.msg.startsWith('stopped leading: the node watch is forbidden'));
    expect(stopped).toBeDefined();
    await r.run(3_000);
    expect(await synced(r.controller)).toBe(false);
    // Blind, it does not take the Lease again.
    await r.run(10_000);
    expect((await r.lease()).spec.holderIdentity).toBe('');
  }, 120_000);

  it('status writes refused (RBAC): it releases the Lease saying the writes fail, and holds off before leading again', async () => {
    const r = await start();
    const role = await send(r.admin, 'GET', `${RBAC}/clusterroles/gpu-fleet-controller`);
    const rules = (role.rules as { resources: string[] }[]).filter(
      (x) => !x.resources.includes('gpuinventories/status'),
    );
    await send(r.admin, 'PUT', `${RBAC}/clusterroles/gpu-fleet-controller`, { ...role, rules });
    // A change to write: one node flips.
    const inv = await send(r.admin, 'GET', `/apis/${O.group}/v1/gpuinventories/cluster`);
    const node = (inv.status as { nodes: { name: string; ready: boolean }[] }).nodes[0];
    if (!node) throw new Error('no GPU node in the status');
    r.s.sim.control.setNodeReady(node.name, node.ready ? 'False' : 'True');
    await r.run(40_000, async () => (await r.lease()).spec.holderIdentity === '');
    const lease = await r.lease();
    expect(lease.spec.holderIdentity).toBe('');
    // The mark stopped at the first refused write.
    const refused = r.logs.find(
      (l) => l.msg === 'write-back' && (l as { action?: string }).action === 'failed',
    );
    const refusedAt = Date.parse(String((refused as { at?: string } | undefined)?.at));
    expect(Date.parse(String(lease.metadata.annotations?.[FRESH]))).toBeLessThanOrEqual(refusedAt);
    expect(
      r.logs.some((l) => /^stopped leading: writing the status failed: .*renew deadline\)$/.test(l.msg)),
    ).toBe(true);
    // It holds off before trying again (two lease durations), so refused writes do not make it flap.
    await r.run(20_000);
    expect((await r.lease()).spec.holderIdentity).toBe('');
  }, 120_000);
});
