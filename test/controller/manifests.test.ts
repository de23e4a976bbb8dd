// The deployment manifests from one source: deploy/ equals what `gpu-fleet controller manifests` prints
// (file by file, and through kubectl's built-in kustomize when kubectl is installed); the RBAC is the
// least the controller needs; the Deployment is hardened as the issue lists.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { defaultImage } from '../../main/cli/commands/controller.ts';
import {
  DEFAULT_METRICS_NAMESPACE,
  DEFAULT_NAMESPACE,
  kustomizationYaml,
  type ManifestOptions,
  manifestFiles,
  yamlDocs,
} from '../../main/controller/manifests.ts';
import { buildCrd, DEFAULT_CRD_GROUP } from '../../main/writeback/index.ts';
import { runCliOnce } from '../helpers/cli-harness.ts';

const DEPLOY = path.resolve(import.meta.dirname, '../../deploy');
const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));
const REGENERATE = 'regenerate with: npm run gpu-fleet -- controller manifests --out-dir deploy';
const DEFAULTS: ManifestOptions = {
  namespace: DEFAULT_NAMESPACE,
  image: defaultImage(),
  group: DEFAULT_CRD_GROUP,
  replicas: 2,
  metricsNamespace: DEFAULT_METRICS_NAMESPACE,
};

type Doc = Record<string, unknown> & { kind: string; metadata: { name: string; namespace?: string } };
const docsOf = (text: string): Doc[] => parseAllDocuments(text).map((d) => d.toJS() as Doc);
const key = (d: Doc) => `${d.kind}/${d.metadata.namespace ?? ''}/${d.metadata.name}`;
const byKey = (docs: Doc[]) => [...docs].sort((a, b) => key(a).localeCompare(key(b)));

async function printed(args: string[] = []): Promise<Doc[]> {
  const r = await runCliOnce(['controller', 'manifests', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return docsOf(r.stdout);
}

describe('controller manifests', () => {
  it('a NetworkPolicy admits to the metrics port only the scraper namespace (the node\u2019s kubelet is always allowed)', async () => {
    const docs = await printed(['--namespace', 'fleet-ops', '--metrics-namespace', 'prom']);
    const policy = docs.find((d) => d.kind === 'NetworkPolicy') as Doc & { spec: unknown };
    expect(policy.metadata.namespace).toBe('fleet-ops');
    expect(policy.spec).toEqual({
      podSelector: {
        matchLabels: { 'app.kubernetes.io/name': 'gpu-fleet', 'app.kubernetes.io/component': 'controller' },
      },
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'prom' } } }],
          ports: [{ protocol: 'TCP', port: 'metrics' }],
        },
      ],
    });
    const r = await runCliOnce(['controller', 'manifests', '--metrics-namespace', 'Not_A_Namespace']);
    expect([r.code, r.stderr.trim()]).toEqual([
      1,
      'error: "Not_A_Namespace" is not a valid namespace name for --metrics-namespace',
    ]);
  });

  it('deploy/ holds exactly the generated kustomize base, file by file', () => {
    const want = new Map(manifestFiles(DEFAULTS).map(([f, docs]) => [f, yamlDocs(docs)]));
    want.set('kustomization.yaml', kustomizationYaml(DEFAULTS));
    expect(readdirSync(DEPLOY).sort(), REGENERATE).toEqual([...want.keys()].sort());
    for (const [file, text] of want)
      expect(readFileSync(path.join(DEPLOY, file), 'utf8'), `${file}: ${REGENERATE}`).toBe(text);
  });

  it('the command prints the same documents as deploy/, in the same order', async () => {
    const fromFiles = manifestFiles(DEFAULTS).flatMap(([file]) =>
      docsOf(readFileSync(path.join(DEPLOY, file), 'utf8')),
    );
    expect(await printed()).toEqual(fromFiles);
  });

  it.skipIf(!KUBECTL)('kubectl kustomize deploy/ builds the same objects the command prints', async () => {
    const { stdout } = await promisify(execFile)(KUBECTL as string, ['kustomize', DEPLOY]);
    expect(byKey(docsOf(stdout))).toEqual(byKey(await printed()));
  });

  it('the CRD is write-back\u2019s own definition', async () => {
    const crd = (await printed(['--group', 'gpus.example.org'])).find(
      (d) => d.kind === 'CustomResourceDefinition',
    );
    expect(crd).toEqual(buildCrd('gpus.example.org'));
  });

  it('RBAC: nodes read cluster-wide, our one GpuInventory and CRD by name, the Lease only in the namespace, the ConfigMap only in kube-system', async () => {
    const docs = await printed(['--namespace', 'fleet-ops', '--group', 'gpus.example.org']);
    const kinds = docs.map((d) => d.kind);
    expect(kinds).toEqual([
      'Namespace',
      'CustomResourceDefinition',
      'ServiceAccount',
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
      'Role',
      'RoleBinding',
      'Deployment',
      'NetworkPolicy',
    ]);
    const find = (kind: string) => docs.find((d) => d.kind === kind) as Doc & Record<string, unknown>;
    expect(find('ClusterRole').rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] },
      {
        apiGroups: ['gpus.example.org'],
        resources: ['gpuinventories'],
        resourceNames: ['cluster'],
        verbs: ['get', 'patch', 'create'],
      },
      {
        apiGroups: ['gpus.example.org'],
        resources: ['gpuinventories/status'],
        resourceNames: ['cluster'],
        verbs: ['patch'],
      },
      {
        apiGroups: ['apiextensions.k8s.io'],
        resources: ['customresourcedefinitions'],
        resourceNames: ['gpuinventories.gpus.example.org'],
        verbs: ['get'],
      },
    ]);
    const roles = docs.filter((d) => d.kind === 'Role') as (Doc & Record<string, unknown>)[];
    expect(roles.map((r) => r.metadata.namespace)).toEqual(['fleet-ops', 'kube-system']);
    expect(roles[0]?.rules).toEqual([
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: ['gpu-fleet-controller'],
        verbs: ['get', 'update'],
      },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
    ]);
    // The ConfigMap sits where the app writes it (DEFAULT_CONFIGMAP_NAMESPACE): that one object, nothing else.
    expect(roles[1]?.rules).toEqual([
      {
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['gpu-node-status'],
        verbs: ['get', 'patch', 'create'],
      },
    ]);
    const bindings = docs.filter((d) => d.kind === 'RoleBinding');
    expect(bindings.map((b) => b.metadata.namespace)).toEqual(['fleet-ops', 'kube-system']);
    for (const binding of [find('ClusterRoleBinding'), ...bindings])
      expect(binding.subjects).toEqual([
        { kind: 'ServiceAccount', name: 'gpu-fleet-controller', namespace: 'fleet-ops' },
      ]);
    expect(JSON.stringify(docs)).not.toContain('"*"');
  });

  it('Deployment: replicas, hardening, probes on the ops endpoints, anti-affinity, the pod name as --id', async () => {
    const docs = await printed([
      '--namespace',
      'fleet-ops',
      '--image',
      'registry.example.org/gpu-fleet:1.2.3',
      '--replicas',
      '3',
    ]);
    const d = docs.find((x) => x.kind === 'Deployment') as unknown as {
      metadata: { namespace: string };
      spec: { replicas: number; template: { spec: unknown } };
    };
    expect(d.metadata.namespace).toBe('fleet-ops');
    expect(d.spec.replicas).toBe(3);
    const pod = d.spec.template.spec as {
      serviceAccountName: string;
      securityContext: Record<string, unknown>;
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: { podAffinityTerm: { topologyKey: string } }[];
        };
      };
      containers: Record<string, never>[];
    };
    expect(pod.serviceAccountName).toBe('gpu-fleet-controller');
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(
      pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]?.podAffinityTerm
        .topologyKey,
    ).toBe('kubernetes.io/hostname');
    const c = pod.containers[0] as unknown as Record<string, unknown> & { args: string[]; env: unknown[] };
    expect(c.image).toBe('registry.example.org/gpu-fleet:1.2.3');
    expect(c.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(c.resources).toMatchObject({
      requests: { cpu: expect.any(String), memory: expect.any(String) },
      limits: { memory: expect.any(String) },
    });
    expect(c.livenessProbe).toMatchObject({ httpGet: { path: '/healthz', port: 'metrics' } });
    expect(c.readinessProbe).toMatchObject({ httpGet: { path: '/readyz', port: 'metrics' } });
    expect(c.args).toEqual([
      'controller',
      '--id=$(POD_NAME)',
      `--group=${DEFAULT_CRD_GROUP}`,
      '--lease-namespace=fleet-ops',
      '--configmap-namespace=kube-system',
      '--metrics-addr=:8080',
    ]);
    expect(c.env).toContainEqual({
      name: 'POD_NAME',
      valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
    });
  });

  it.each([
    [['--namespace', 'Not_A_Namespace'], '"Not_A_Namespace" is not a valid namespace name for --namespace'],
    [['--replicas', '0'], '--replicas must be a whole number from 1 to 10'],
    [['--replicas', 'two'], '--replicas must be a whole number from 1 to 10'],
    [['--image', 'bad image'], '"bad image" is not an image reference for --image'],
    [['--group', 'nodots'], 'is not a valid API group'],
  ])('refuses %j with one sentence', async (args, sentence) => {
    const r = await runCliOnce(['controller', 'manifests', ...args]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(sentence);
  });
});
