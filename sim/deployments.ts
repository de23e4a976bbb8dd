// apps/v1 Deployments, stored only (no controller runs, so no ReplicaSets, no status beyond {}): the
// defaults the API server's defaulting fills in and the structural checks of ValidateDeploymentSpec
// (the transcripts record no Deployment; the texts follow pkg/apis/apps/validation and field.Error).
import { type Cause, invalidValue } from './errors.ts';
import { obj, str } from './json.ts';
import type { Json, JsonObject, KObj, ResourceDef } from './types.ts';
import { CRUD_VERBS, isObj } from './types.ts';

/** Go's %#v of a map[string]string (keys sorted), or its nil form. */
function goMap(v: Json | undefined): string {
  if (!isObj(v)) return 'map[string]string(nil)';
  const parts = Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(v[k]))}`);
  return `map[string]string{${parts.join(', ')}}`;
}

/** Whether a LabelSelector selects a label set (matchLabels and matchExpressions). */
function selects(selector: JsonObject, labels: JsonObject): boolean {
  for (const [k, v] of Object.entries(obj(selector.matchLabels))) if (labels[k] !== v) return false;
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isObj) : [];
  for (const e of exprs) {
    const key = str(e.key) ?? '';
    const values = Array.isArray(e.values) ? e.values.map(String) : [];
    const has = Object.hasOwn(labels, key);
    const value = has ? String(labels[key]) : '';
    if (e.operator === 'In' && !(has && values.includes(value))) return false;
    if (e.operator === 'NotIn' && has && values.includes(value)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

function validateDeployment(o: KObj): Cause[] {
  const causes: Cause[] = [];
  const spec = obj(o.spec);
  const replicas = spec.replicas;
  if (typeof replicas === 'number' && replicas < 0)
    causes.push(invalidValue('spec.replicas', String(replicas), 'must be greater than or equal to 0'));
  const template = obj(spec.template);
  const labels = obj(obj(template.metadata).labels);
  if (!isObj(spec.selector))
    causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' });
  else if (!selects(spec.selector, labels))
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${goMap(obj(template.metadata).labels)}: \`selector\` does not match template \`labels\``,
      field: 'spec.template.metadata.labels',
    });
  const pod = obj(template.spec);
  const containers = Array.isArray(pod.containers) ? pod.containers : [];
  if (containers.length === 0)
    causes.push({
      reason: 'FieldValueRequired',
      message: 'Required value',
      field: 'spec.template.spec.containers',
    });
  containers.forEach((c, i) => {
    const at = `spec.template.spec.containers[${i}]`;
    if (!str(obj(c).name))
      causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${at}.name` });
    if (!str(obj(c).image))
      causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${at}.image` });
  });
  const policy = str(pod.restartPolicy);
  if (policy !== undefined && policy !== 'Always')
    causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: "${policy}": supported values: "Always"`,
      field: 'spec.template.spec.restartPolicy',
    });
  return causes;
}

function pullPolicy(image: string): string {
  const last = image.split('/').pop() ?? '';
  if (last.includes('@')) return 'IfNotPresent';
  const tag = last.includes(':') ? last.split(':').pop() : undefined;
  return tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(c: Json): Json {
  if (!isObj(c)) return c;
  return {
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: pullPolicy(str(c.image) ?? ''),
    ...c,
  };
}

/** The defaults SetDefaults_Deployment and the pod template defaults fill in (on every write). */
function decodeDeployment(o: KObj): { warnings: string[] } {
  if (!isObj(o.spec)) return { warnings: [] };
  const spec = o.spec;
  const template = obj(spec.template);
  const pod = obj(template.spec);
  const withPod: JsonObject = {
    ...pod,
    restartPolicy: pod.restartPolicy ?? 'Always',
    terminationGracePeriodSeconds: pod.terminationGracePeriodSeconds ?? 30,
    dnsPolicy: pod.dnsPolicy ?? 'ClusterFirst',
    securityContext: pod.securityContext ?? {},
    schedulerName: pod.schedulerName ?? 'default-scheduler',
  };
  if (Array.isArray(pod.containers)) withPod.containers = pod.containers.map(defaultContainer);
  o.spec = {
    replicas: spec.replicas ?? 1,
    ...spec,
    template: { ...template, metadata: obj(template.metadata), spec: withPod },
    strategy: spec.strategy ?? {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    },
    revisionHistoryLimit: spec.revisionHistoryLimit ?? 10,
    progressDeadlineSeconds: spec.progressDeadlineSeconds ?? 600,
  };
  return { warnings: [] };
}

export const DEPLOYMENT_DEF: ResourceDef = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  kind: 'Deployment',
  listKind: 'DeploymentList',
  singular: 'deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  hasStatus: true,
  builtin: true,
  verbs: [...CRUD_VERBS],
  generation: true,
  decode: decodeDeployment,
  validate: validateDeployment,
};
