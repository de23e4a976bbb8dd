// kubectl (if installed) `apply --dry-run=server` of controller-style manifests against the simulator:
// every object validated and answered, nothing stored; then a real apply, and a dry-run over existing objects.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSim, startSim } from './index.ts';

const run = promisify(execFile);
const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));
if (!KUBECTL)
  console.warn('kubectl not found in /usr/bin or /usr/local/bin: skipping the kubectl dry-run tests');

const MANIFESTS = `apiVersion: v1
kind: ServiceAccount
metadata:
  name: gpu-fleet-controller
  namespace: default
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: gpu-fleet-controller
rules:
  - apiGroups: [""]
    resources: ["nodes"]
    verbs: ["get", "list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: gpu-fleet-controller
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: gpu-fleet-controller
subjects:
  - kind: ServiceAccount
    name: gpu-fleet-controller
    namespace: default
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: gpu-fleet-controller
  namespace: default
rules:
  - apiGroups: ["coordination.k8s.io"]
    resources: ["leases"]
    verbs: ["get", "create", "update"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: gpu-fleet-controller
  namespace: default
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: gpu-fleet-controller
subjects:
  - kind: ServiceAccount
    name: gpu-fleet-controller
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: gpu-fleet-controller
  namespace: default
spec:
  replicas: 2
  selector:
    matchLabels:
      app: gpu-fleet-controller
  template:
    metadata:
      labels:
        app: gpu-fleet-controller
    spec:
      serviceAccountName: gpu-fleet-controller
      containers:
        - name: controller
          image: ghcr.io/example/gpu-fleet:1.0.0
`;

describe.skipIf(!KUBECTL)('kubectl apply --dry-run=server against the simulator', () => {
  let sim: RunningSim;
  let dir: string;
  const kubectl = async (...args: string[]) =>
    (
      await run(KUBECTL as string, [
        '--kubeconfig',
        join(dir, 'config'),
        '--cache-dir',
        join(dir, 'cache'),
        ...args,
      ])
    ).stdout;

  beforeAll(async () => {
    sim = await startSim({ scenario: 'empty' });
    dir = await mkdtemp(join(tmpdir(), 'sim-kubectl-dry-'));
    await sim.writeKubeconfig(join(dir, 'config'));
    await writeFile(join(dir, 'manifests.yaml'), MANIFESTS);
  });
  afterAll(async () => {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('validates every object and stores none', async () => {
    sim.control.resetRequestLog();
    const out = await kubectl('apply', '--dry-run=server', '-f', join(dir, 'manifests.yaml'));
    expect(out.trim().split('\n')).toEqual([
      'serviceaccount/gpu-fleet-controller created (server dry run)',
      'clusterrole.rbac.authorization.k8s.io/gpu-fleet-controller created (server dry run)',
      'clusterrolebinding.rbac.authorization.k8s.io/gpu-fleet-controller created (server dry run)',
      'role.rbac.authorization.k8s.io/gpu-fleet-controller created (server dry run)',
      'rolebinding.rbac.authorization.k8s.io/gpu-fleet-controller created (server dry run)',
      'deployment.apps/gpu-fleet-controller created (server dry run)',
    ]);
    const writes = sim.control.requestLog().filter((e) => e.method !== 'GET');
    expect(writes.length).toBe(6);
    expect(writes.every((e) => e.path.includes('dryRun=All'))).toBe(true);
    await expect(kubectl('get', 'deployment', 'gpu-fleet-controller', '-n', 'default')).rejects.toThrow(
      /NotFound/,
    );
  });

  it('a real apply, then a dry run over the existing objects is unchanged', async () => {
    await kubectl('apply', '-f', join(dir, 'manifests.yaml'));
    const out = await kubectl('apply', '--dry-run=server', '-f', join(dir, 'manifests.yaml'));
    expect(out).toContain('deployment.apps/gpu-fleet-controller unchanged (server dry run)');
    const dep = JSON.parse(
      await kubectl('get', 'deployment', 'gpu-fleet-controller', '-n', 'default', '-o', 'json'),
    );
    expect(dep.spec.replicas).toBe(2);
  });

  it('refuses a Deployment whose selector does not match its template', async () => {
    const bad =
      MANIFESTS.split('---\n')
        .at(-1)
        ?.replace('app: gpu-fleet-controller\n  template', 'app: other\n  template') ?? '';
    await writeFile(join(dir, 'bad.yaml'), bad);
    await expect(kubectl('apply', '--dry-run=server', '-f', join(dir, 'bad.yaml'))).rejects.toThrow(
      /`selector` does not match template `labels`/,
    );
  });
});
