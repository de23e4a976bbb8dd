/**
 * The controller's deployment manifests, from one source: `gpu-fleet controller manifests` prints them
 * and `deploy/` holds the same files as a kustomize base (a test keeps the two equal). The CRD is
 * write-back's own buildCrd(), and the RBAC grants exactly the requests the controller makes:
 *   cluster-wide: nodes get/list/watch; pods list/watch (free GPUs: the live GPU pods of every namespace);
 *     the `cluster` GpuInventory get/patch/create and its status patch;
 *     get of its own CRD (write-back checks the CRD's shape before writing);
 *   in its namespace: the `gpu-fleet-controller` Lease get/update, and Lease create (a POST cannot name
 *     its object);
 *   in kube-system (DEFAULT_CONFIGMAP_NAMESPACE, where the desktop app writes it too): the
 *     `gpu-node-status` ConfigMap get/patch/create, nothing else there.
 * The create on the ConfigMap and the GpuInventory is for server-side apply: an apply that creates its
 * object is authorized as create as well, with the URL's name, so resourceNames narrows it.
 *
 * A NetworkPolicy admits to the ops port only pods of the metrics scraper's namespace; the kubelet's
 * probes need no rule, because a NetworkPolicy always allows traffic from the node the pod runs on
 * (Kubernetes' NetworkPolicy semantics, which every enforcing CNI follows) and the kubelet probes from
 * there. Everything else that reaches the pod's IP is dropped by a CNI that enforces policies.
 */
import { stringify } from 'yaml';
import { isNamespaceName } from '../../common/k8s-names.ts';
import {
  CONTROLLER_LEASE_NAME,
  DEFAULT_CONFIGMAP_NAMESPACE,
  DEFAULT_CONTROLLER_NAMESPACE,
} from '../../common/settings.ts';
import { buildCrd, CONFIGMAP_NAME, crdName, INVENTORY_OBJECT_NAME } from '../writeback/index.ts';
import { CONTROLLER_LABELS } from './lease-record.ts';

export interface ManifestOptions {
  namespace: string;
  image: string;
  group: string;
  replicas: number;
  /** The namespace whose pods may scrape /metrics (the NetworkPolicy's one source). */
  metricsNamespace: string;
}

/** Where kube-prometheus-stack and most Prometheus installs run. */
export const DEFAULT_METRICS_NAMESPACE = 'monitoring';

/** The namespace the tray reads the controller's Lease from unless told otherwise. */
export const DEFAULT_NAMESPACE = DEFAULT_CONTROLLER_NAMESPACE;
export const METRICS_PORT = 8080;
const NAME = 'gpu-fleet-controller';

type Doc = Record<string, unknown>;

const meta = (name: string, namespace?: string): Doc => ({
  name,
  ...(namespace !== undefined ? { namespace } : {}),
  labels: { ...CONTROLLER_LABELS },
});

function rbac(o: ManifestOptions): Doc[] {
  const subject = [{ kind: 'ServiceAccount', name: NAME, namespace: o.namespace }];
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: meta(NAME),
      rules: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] },
        {
          apiGroups: [o.group],
          resources: ['gpuinventories'],
          resourceNames: [INVENTORY_OBJECT_NAME],
          verbs: ['get', 'patch', 'create'], // create: see the module comment
        },
        {
          apiGroups: [o.group],
          resources: ['gpuinventories/status'],
          resourceNames: [INVENTORY_OBJECT_NAME],
          verbs: ['patch'],
        },
        {
          apiGroups: ['apiextensions.k8s.io'],
          resources: ['customresourcedefinitions'],
          resourceNames: [crdName(o.group)],
          verbs: ['get'],
        },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: meta(NAME),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: NAME },
      subjects: subject,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta(NAME, o.namespace),
      rules: [
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          resourceNames: [CONTROLLER_LEASE_NAME],
          verbs: ['get', 'update'],
        },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta(NAME, o.namespace),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: NAME },
      subjects: subject,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta(NAME, DEFAULT_CONFIGMAP_NAMESPACE),
      rules: [
        {
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: [CONFIGMAP_NAME],
          verbs: ['get', 'patch', 'create'], // create: see the module comment
        },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta(NAME, DEFAULT_CONFIGMAP_NAMESPACE),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: NAME },
      subjects: subject,
    },
  ];
}

function deployment(o: ManifestOptions): Doc {
  const probe = (path: string, period: number) => ({
    httpGet: { path, port: 'metrics' },
    periodSeconds: period,
    timeoutSeconds: 2,
    failureThreshold: 3,
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(NAME, o.namespace),
    spec: {
      replicas: o.replicas,
      selector: { matchLabels: { ...CONTROLLER_LABELS } },
      template: {
        metadata: { labels: { ...CONTROLLER_LABELS } },
        spec: {
          serviceAccountName: NAME,
          // Graceful shutdown takes at most 10 s (the lease is released first).
          terminationGracePeriodSeconds: 15,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 1000,
            runAsGroup: 1000,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          affinity: {
            podAntiAffinity: {
              // Preferred, not required: one node is still enough to run (with both replicas on it).
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 100,
                  podAffinityTerm: {
                    labelSelector: { matchLabels: { ...CONTROLLER_LABELS } },
                    topologyKey: 'kubernetes.io/hostname',
                  },
                },
              ],
            },
          },
          containers: [
            {
              name: 'controller',
              image: o.image,
              imagePullPolicy: 'IfNotPresent',
              args: [
                'controller',
                '--id=$(POD_NAME)',
                `--group=${o.group}`,
                `--lease-namespace=${o.namespace}`,
                `--configmap-namespace=${DEFAULT_CONFIGMAP_NAMESPACE}`,
                `--metrics-addr=:${METRICS_PORT}`,
              ],
              env: [
                { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
              ],
              ports: [{ name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' }],
              livenessProbe: probe('/healthz', 10),
              readinessProbe: probe('/readyz', 5),
              resources: {
                requests: { cpu: '50m', memory: '128Mi' },
                limits: { cpu: '1', memory: '512Mi' },
              },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                runAsNonRoot: true,
                capabilities: { drop: ['ALL'] },
                seccompProfile: { type: 'RuntimeDefault' },
              },
              volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
            },
          ],
          volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } }],
        },
      },
    },
  };
}

function networkPolicy(o: ManifestOptions): Doc {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: meta(NAME, o.namespace),
    spec: {
      podSelector: { matchLabels: { ...CONTROLLER_LABELS } },
      // Ingress only: the controller must still reach the API server.
      policyTypes: ['Ingress'],
      ingress: [
        {
          // `kubernetes.io/metadata.name` is set on every namespace by the API server itself.
          from: [
            { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': o.metricsNamespace } } },
          ],
          ports: [{ protocol: 'TCP', port: 'metrics' }],
        },
      ],
    },
  };
}

/** The kustomize base: file name → its documents, in apply order (namespace and CRD first). */
export function manifestFiles(o: ManifestOptions): [string, Doc[]][] {
  return [
    ['namespace.yaml', [{ apiVersion: 'v1', kind: 'Namespace', metadata: meta(o.namespace) }]],
    ['crd.yaml', [buildCrd(o.group)]],
    [
      'serviceaccount.yaml',
      [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(NAME, o.namespace) }],
    ],
    ['rbac.yaml', rbac(o)],
    ['deployment.yaml', [deployment(o)]],
    ['networkpolicy.yaml', [networkPolicy(o)]],
  ];
}

export function yamlDocs(docs: readonly Doc[]): string {
  return docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}

/** What `controller manifests` prints: every document, one YAML stream. */
export function manifestsYaml(o: ManifestOptions): string {
  return yamlDocs(manifestFiles(o).flatMap(([, docs]) => docs));
}

/** The kustomization.yaml that lists the files. */
export function kustomizationYaml(o: ManifestOptions): string {
  return stringify(
    {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: manifestFiles(o).map(([file]) => file),
    },
    { lineWidth: 0 },
  );
}

/** Why the options cannot make valid manifests, or null. */
export function manifestProblem(o: ManifestOptions): string | null {
  if (!isNamespaceName(o.namespace)) return `"${o.namespace}" is not a valid namespace name for --namespace`;
  if (!isNamespaceName(o.metricsNamespace))
    return `"${o.metricsNamespace}" is not a valid namespace name for --metrics-namespace`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$/.test(o.image))
    return `"${o.image}" is not an image reference for --image`;
  if (!Number.isInteger(o.replicas) || o.replicas < 1 || o.replicas > 10)
    return '--replicas must be a whole number from 1 to 10';
  return null;
}
