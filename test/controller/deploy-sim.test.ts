// The manifests against the sim: `kubectl apply --dry-run=server` accepts them, our own client applies
// them, and the controller then runs with a TokenRequest token of the manifests' own ServiceAccount under
// exactly the manifests' RBAC — it leads, writes the GpuInventory status and the ConfigMap, and is never
// refused. These need the sim's Namespaces, ServiceAccounts (TokenRequest), RBAC, Deployments and
// dry-run; a sim without them (read from its discovery) skips the test and says why.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultImage } from '../../main/cli/commands/controller.ts';
import {
  DEFAULT_METRICS_NAMESPACE,
  DEFAULT_NAMESPACE,
  type ManifestOptions,
  manifestFiles,
  yamlDocs,
} from '../../main/controller/manifests.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { DEFAULT_CONFIGMAP_NAMESPACE, DEFAULT_CRD_GROUP } from '../../main/writeback/index.ts';
import { startCli } from '../helpers/cli-harness.ts';
import { pollUntil } from '../helpers/poll.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';

const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => fs.existsSync(p));
const O: ManifestOptions = {
  namespace: DEFAULT_NAMESPACE,
  image: defaultImage(),
  group: DEFAULT_CRD_GROUP,
  replicas: 2,
  metricsNamespace: DEFAULT_METRICS_NAMESPACE,
};
const SA_USER = `system:serviceaccount:${O.namespace}:gpu-fleet-controller`;

/** Where each kind of manifest lives in the API. */
const RESOURCES = new Map([
  ['Namespace', { base: '/api/v1', plural: 'namespaces', namespaced: false }],
  [
    'CustomResourceDefinition',
    { base: '/apis/apiextensions.k8s.io/v1', plural: 'customresourcedefinitions', namespaced: false },
  ],
  ['ServiceAccount', { base: '/api/v1', plural: 'serviceaccounts', namespaced: true }],
  ['ClusterRole', { base: '/apis/rbac.authorization.k8s.io/v1', plural: 'clusterroles', namespaced: false }],
  [
    'ClusterRoleBinding',
    { base: '/apis/rbac.authorization.k8s.io/v1', plural: 'clusterrolebindings', namespaced: false },
  ],
  ['Role', { base: '/apis/rbac.authorization.k8s.io/v1', plural: 'roles', namespaced: true }],
  ['RoleBinding', { base: '/apis/rbac.authorization.k8s.io/v1', plural: 'rolebindings', namespaced: true }],
  ['Deployment', { base: '/apis/apps/v1', plural: 'deployments', namespaced: true }],
]);
/** Kinds the sim has nothing to enforce with (it has no pod network), left out of what is applied to it. */
const NOT_FOR_THE_SIM = ['NetworkPolicy'];
const forTheSim = (docs: Record<string, unknown>[]) =>
  docs.filter((d) => !NOT_FOR_THE_SIM.includes(String(d.kind)));

let s: SimContext;
let admin: ContextClient;
/** Kinds of the manifests the sim does not serve (read from its discovery). */
const unserved: string[] = [];
const lacking = (kinds: string[]) => {
  const gone = unserved.filter((k) => kinds.includes(k));
  return gone.length > 0 ? `the sim does not serve ${gone.join(', ')} yet` : null;
};

async function served(base: string, plural: string): Promise<boolean> {
  const res = await admin.request('GET', base, { headers: { Accept: 'application/json' } });
  if (res.status !== 200) return false;
  const list = JSON.parse(res.body) as { resources?: { name: string }[] };
  return (list.resources ?? []).some((r) => r.name === plural);
}

beforeAll(async () => {
  s = await startSimContext();
  admin = new ContextClient(s.context('sim-admin'));
  for (const [kind, r] of RESOURCES) if (!(await served(r.base, r.plural))) unserved.push(kind);
});
afterAll(async () => {
  admin.close();
  await s.cleanup();
});

/** Applies the manifests with our own client (server-side apply), all but the kinds in `except`. */
async function applyAll(except: string[]): Promise<void> {
  for (const [, docs] of manifestFiles(O)) {
    for (const doc of forTheSim(docs) as { kind: string; metadata: { name: string; namespace?: string } }[]) {
      if (except.includes(doc.kind)) continue;
      const r = RESOURCES.get(doc.kind);
      if (!r) throw new Error(`no resource for ${doc.kind}`);
      const ns = r.namespaced ? `/namespaces/${doc.metadata.namespace}` : '';
      const res = await admin.request(
        'PATCH',
        `${r.base}${ns}/${r.plural}/${doc.metadata.name}?fieldManager=gpu-fleet-test&force=true`,
        {
          body: JSON.stringify(doc),
          headers: { 'Content-Type': 'application/apply-patch+yaml', Accept: 'application/json' },
        },
      );
      if (res.status !== 200 && res.status !== 201)
        throw new Error(`apply ${doc.kind}: ${res.status} ${res.body}`);
    }
  }
}

describe('the manifests on the sim', () => {
  it('kubectl apply --dry-run=server accepts them and creates nothing', async (ctx) => {
    const missing = lacking([...RESOURCES.keys()]);
    if (missing !== null || !KUBECTL) return ctx.skip(missing ?? 'kubectl is not installed');
    const kubectl = (...args: string[]) =>
      promisify(execFile)(KUBECTL as string, [
        '--kubeconfig',
        s.kubeconfigPath,
        '--cache-dir',
        path.join(s.dir, 'kube-cache'),
        ...args,
      ]);
    // A real server refuses a dry run of objects in a Namespace the same dry run would create (the
    // Namespace is not stored): as on a real cluster, the Namespace exists first.
    const created = await admin.request('POST', '/api/v1/namespaces', {
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: O.namespace } }),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    });
    expect(created.status).toBe(201);
    const file = path.join(s.dir, 'manifests.yaml');
    fs.writeFileSync(file, yamlDocs(forTheSim(manifestFiles(O).flatMap(([, d]) => d))));
    const { stdout } = await kubectl('apply', '--dry-run=server', '-f', file);
    expect(stdout).toContain('deployment.apps/gpu-fleet-controller created (server dry run)');
    expect(stdout).toContain('serviceaccount/gpu-fleet-controller created (server dry run)');
    const dep = await admin.request(
      'GET',
      `/apis/apps/v1/namespaces/${O.namespace}/deployments/gpu-fleet-controller`,
    );
    expect(dep.status).toBe(404);
    const sa = await admin.request(
      'GET',
      `/api/v1/namespaces/${O.namespace}/serviceaccounts/gpu-fleet-controller`,
    );
    expect(sa.status).toBe(404);
  });

  it('the controller runs with a token of the manifests\u2019 ServiceAccount and exactly their RBAC', async (ctx) => {
    // The Deployment object itself plays no part here: the controller runs in this process.
    const missing = lacking([...RESOURCES.keys()].filter((k) => k !== 'Deployment'));
    if (missing !== null) return ctx.skip(missing);
    await applyAll(unserved);
    // A fresh install: the controller creates the ConfigMap and the `cluster` GpuInventory itself (by
    // server-side apply), which needs `create` on them besides `patch`.
    for (const p of [
      `/api/v1/namespaces/${DEFAULT_CONFIGMAP_NAMESPACE}/configmaps/gpu-node-status`,
      `/apis/${O.group}/v1/gpuinventories/cluster`,
    ])
      expect((await admin.request('GET', p)).status).toBe(404);
    const tr = await admin.request(
      'POST',
      `/api/v1/namespaces/${O.namespace}/serviceaccounts/gpu-fleet-controller/token`,
      {
        body: JSON.stringify({
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { expirationSeconds: 3600 },
        }),
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      },
    );
    expect(tr.status).toBe(201);
    const token = (JSON.parse(tr.body) as { status: { token: string } }).status.token;
    const sa = path.join(s.dir, 'sa');
    fs.mkdirSync(sa, { recursive: true });
    fs.writeFileSync(path.join(sa, 'token'), token);
    fs.writeFileSync(path.join(sa, 'ca.crt'), s.sim.caPem);
    fs.writeFileSync(path.join(sa, 'namespace'), O.namespace);
    // Exactly the Deployment's arguments, with the pod name filled in and a loopback metrics port.
    const deployment = manifestFiles(O)
      .flatMap(([, d]) => d)
      .find((d) => d.kind === 'Deployment') as {
      spec: { template: { spec: { containers: { args: string[] }[] } } };
    };
    const args = (deployment.spec.template.spec.containers[0]?.args ?? []).map((a) =>
      a
        .replace('$(POD_NAME)', 'gpu-fleet-controller-abc12')
        .replace('--metrics-addr=:8080', '--metrics-addr=127.0.0.1:0'),
    );
    s.sim.control.resetRequestLog();
    const run = startCli([...args, `--serviceaccount-dir=${sa}`], {
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: new URL(s.sim.url).port,
    });
    const said = (prefix: string) =>
      run.lines().some((l) => String((JSON.parse(l) as { msg: string }).msg).startsWith(prefix));
    const written = (path: string) =>
      s.sim.control
        .requestLog()
        .some(
          (e) =>
            e.user === SA_USER &&
            e.method === 'PATCH' &&
            e.path.startsWith(path) &&
            (e.status === 200 || e.status === 201),
        );
    await pollUntil(() => said('became leader'), 'leadership', { limitMs: 20_000 });
    const mine = () => s.sim.control.requestLog().filter((e) => e.user === SA_USER);
    const refused = () => mine().filter((e) => e.status === 401 || e.status === 403);
    // A refusal ends the wait at once, so the assertion below names it.
    await pollUntil(
      () =>
        refused().length > 0 ||
        (written(`/apis/${O.group}/v1/gpuinventories/cluster/status`) &&
          written(`/api/v1/namespaces/${DEFAULT_CONFIGMAP_NAMESPACE}/configmaps/gpu-node-status`)),
      'the status and ConfigMap writes',
      { limitMs: 30_000 },
    );
    run.stop();
    const code = await run.exit;
    expect(refused()).toEqual([]);
    expect(code).toBe(0);
    expect(mine().length).toBeGreaterThan(0);
    expect(said('released the lease')).toBe(true);
  });
});
