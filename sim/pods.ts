// Pods and ServiceAccounts as kube-apiserver serves them (transcript 12): the ServiceAccount admission check
// (403 when the pod's ServiceAccount does not exist), the defaults a stored Pod gets, the extended-resource
// rules for nvidia.com/gpu (limit required, request equal to it: 422), graceful deletion of a pod bound to
// a node, and the pod field selectors (spec.nodeName and its old alias spec.host, status.phase, …).
import { randomBytes } from 'node:crypto';
import type { Cause } from './errors.ts';
import { apiError, invalid, notFound } from './errors.ts';
import type { Ctx } from './http.ts';
import { readBody, sendJson } from './http.ts';
import { obj, str } from './json.ts';
import { objectJson } from './serialize.ts';
import type { Json, JsonObject, KObj, ResourceDef } from './types.ts';
import { CRUD_VERBS, isObj, storeKey } from './types.ts';

/**
 * The slice of Core the pod handlers use, declared here: core.ts builds its Registry from resources.ts,
 * which lists POD_DEFS from this file, so importing Core back would close a cycle.
 */
export interface PodCore {
  readonly registry: { find(group: string, version: string, resource: string): ResourceDef | undefined };
  readonly store: { put(skey: string, key: string, obj: KObj): KObj };
  get(def: ResourceDef, namespace: string, name: string): KObj | undefined;
  keyOfObj(def: ResourceDef, o: KObj): string;
  remove(def: ResourceDef, o: KObj): KObj | undefined;
}

export const POD_DEFS: ResourceDef[] = [
  {
    group: '',
    version: 'v1',
    resource: 'pods',
    kind: 'Pod',
    listKind: 'PodList',
    singular: 'pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    hasStatus: true,
    builtin: true,
    verbs: [...CRUD_VERBS],
    generation: true,
  },
  {
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    listKind: 'ServiceAccountList',
    singular: 'serviceaccount',
    namespaced: true,
    shortNames: ['sa'],
    hasStatus: false,
    builtin: true,
    verbs: [...CRUD_VERBS],
    generation: false,
  },
];

/** Resource names with a domain outside kubernetes.io are extended resources: no overcommit, whole numbers. */
function isExtended(name: string): boolean {
  const slash = name.indexOf('/');
  if (slash < 0) return false;
  const domain = name.slice(0, slash);
  return !(domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io'));
}

function containerCauses(c: JsonObject, i: number): Cause[] {
  const causes: Cause[] = [];
  const res = obj(c.resources);
  const limits = obj(res.limits);
  const requests = obj(res.requests);
  const at = `spec.containers[${i}].resources`;
  for (const [name, value] of Object.entries(requests)) {
    if (!isExtended(name)) continue;
    if (!(name in limits)) {
      causes.push({
        reason: 'FieldValueRequired',
        message: 'Required value: Limit must be set for non overcommitable resources',
        field: `${at}.limits`,
      });
    } else if (String(limits[name]) !== String(value)) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(String(value))}: must be equal to ${name} limit of ${String(limits[name])}`,
        field: `${at}.requests`,
      });
    }
  }
  return causes;
}

function imagePullPolicy(image: string): string {
  const last = image.split('/').pop() ?? '';
  const tag = last.includes('@') ? 'digest' : last.includes(':') ? last.split(':').pop() : 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function qosClass(containers: JsonObject[]): string {
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const res = obj(c.resources);
    const limits = obj(res.limits);
    const requests = obj(res.requests);
    for (const r of ['cpu', 'memory']) {
      if (r in limits || r in requests) any = true;
      if (!(r in limits) || String(limits[r]) !== String(requests[r] ?? limits[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

const DEFAULT_TOLERATIONS: Json[] = ['not-ready', 'unreachable'].map((k) => ({
  key: `node.kubernetes.io/${k}`,
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
}));

/** Admission and defaults of a Pod create; throws the 403/422 a real server sends. */
export function podCreate(core: PodCore, o: KObj): void {
  const ns = String(o.metadata.namespace ?? '');
  const name = String(o.metadata.name ?? '');
  const spec = obj(o.spec);
  const containers = (Array.isArray(spec.containers) ? spec.containers : []).filter(isObj);
  const causes = containers.flatMap((c, i) => {
    // Defaulting copies limits into missing requests before validation.
    const res = obj(c.resources);
    const requests = { ...obj(res.limits), ...obj(res.requests) };
    const withRequests = { ...c, resources: { ...res, requests } };
    return containerCauses(isObj(res.limits) || isObj(res.requests) ? withRequests : c, i);
  });
  if (causes.length > 0) throw invalid('Pod', '', name, causes);
  const sa = str(spec.serviceAccountName) ?? str(spec.serviceAccount) ?? 'default';
  const saDef = core.registry.find('', 'v1', 'serviceaccounts') as ResourceDef;
  if (!core.get(saDef, ns, sa)) {
    throw apiError(
      403,
      `pods "${name}" is forbidden: error looking up service account ${ns}/${sa}: serviceaccount "${sa}" not found`,
      'Forbidden',
      { name, kind: 'pods' },
    );
  }
  const volume = `kube-api-access-${randomBytes(3).toString('hex').slice(0, 5)}`;
  const filled = containers.map((c) => {
    const res = obj(c.resources);
    const resources: JsonObject = { ...res };
    if (isObj(res.limits)) resources.requests = { ...res.limits, ...obj(res.requests) };
    return {
      ...c,
      resources,
      volumeMounts: [
        ...(Array.isArray(c.volumeMounts) ? c.volumeMounts : []),
        { name: volume, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
      ],
      terminationMessagePath: c.terminationMessagePath ?? '/dev/termination-log',
      terminationMessagePolicy: c.terminationMessagePolicy ?? 'File',
      imagePullPolicy: c.imagePullPolicy ?? imagePullPolicy(String(c.image ?? '')),
    };
  });
  const tokenVolume: JsonObject = {
    name: volume,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode: 420,
    },
  };
  const { nodeName: _node, volumes: _volumes, ...given } = spec;
  const next: JsonObject = {
    volumes: [],
    ...given,
    containers: filled as Json[],
    restartPolicy: spec.restartPolicy ?? 'Always',
    terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds ?? 30,
    dnsPolicy: spec.dnsPolicy ?? 'ClusterFirst',
    serviceAccountName: sa,
    serviceAccount: sa,
    ...(spec.nodeName === undefined ? {} : { nodeName: spec.nodeName }),
    securityContext: spec.securityContext ?? {},
    schedulerName: spec.schedulerName ?? 'default-scheduler',
    tolerations: [...(Array.isArray(spec.tolerations) ? spec.tolerations : []), ...DEFAULT_TOLERATIONS],
    priority: spec.priority ?? 0,
    enableServiceLinks: spec.enableServiceLinks ?? true,
    preemptionPolicy: spec.preemptionPolicy ?? 'PreemptLowerPriority',
  };
  // Key order as stored: volumes first (the pod's own, then the ServiceAccount token volume).
  next.volumes = [...(Array.isArray(spec.volumes) ? spec.volumes : []), tokenVolume];
  o.spec = next;
  const status = obj(o.status);
  o.status = { phase: status.phase ?? 'Pending', ...status, qosClass: qosClass(containers) };
}

/** A ServiceAccount gets nothing but its metadata (no controller runs, so no token secrets). */
export function serviceAccount(namespace: string, name = 'default'): KObj {
  return { kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name, namespace } };
}

const TERMINAL = new Set(['Succeeded', 'Failed']);

/**
 * A DELETE of a pod bound to a node that has not ended only marks it (deletionTimestamp = now + grace,
 * generation + 1), as the kubelet would finish it; returns the marked pod, or null to delete at once.
 */
export function podGracefulDelete(prev: KObj, graceSeconds: number | null, now: number): KObj | null {
  const spec = obj(prev.spec);
  const phase = str(obj(prev.status).phase) ?? '';
  const grace = graceSeconds ?? Number(spec.terminationGracePeriodSeconds ?? 30);
  if (!spec.nodeName || TERMINAL.has(phase) || grace <= 0) return null;
  if (prev.metadata.deletionTimestamp) return prev;
  const at = new Date(now + grace * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    ...prev,
    metadata: {
      ...prev.metadata,
      generation: Number(prev.metadata.generation ?? 1) + 1,
      deletionTimestamp: at,
      deletionGracePeriodSeconds: grace,
    },
  };
}

/** A pod's value for a field selector's field, or undefined when pods do not support the field. */
export function podField(o: KObj, field: string): string | undefined {
  const spec = obj(o.spec);
  const status = obj(o.status);
  switch (field) {
    case 'spec.nodeName':
    case 'spec.host':
      return String(spec.nodeName ?? '');
    case 'spec.restartPolicy':
    case 'spec.schedulerName':
    case 'spec.serviceAccountName':
      return String(spec[field.slice(5)] ?? '');
    case 'spec.hostNetwork':
      return String(spec.hostNetwork === true);
    case 'status.phase':
    case 'status.podIP':
    case 'status.nominatedNodeName':
      return String(status[field.slice(7)] ?? '');
    default:
      return undefined;
  }
}

/** DELETE of a pod: graceful for a pod bound to a node (marked, kept), else at once; answers the pod. */
export async function deletePod(
  core: PodCore,
  ctx: Ctx,
  def: ResourceDef,
  ns: string,
  name: string,
): Promise<void> {
  const prev = core.get(def, ns, name);
  if (!prev) throw notFound(def, name);
  const raw = (await readBody(ctx)).toString('utf8').trim();
  let grace: number | null = null;
  const q = ctx.query.get('gracePeriodSeconds');
  if (q !== null && /^-?\d+$/.test(q)) grace = Number(q);
  if (raw !== '') {
    try {
      const body: unknown = JSON.parse(raw);
      if (isObj(body) && typeof body.gracePeriodSeconds === 'number') grace = body.gracePeriodSeconds;
    } catch {
      // An unreadable DeleteOptions body: the defaults apply.
    }
  }
  const marked = podGracefulDelete(prev, grace, Date.now());
  if (marked) {
    // Stored directly: Core.write keeps the generation of a spec-unchanged object, marking bumps it.
    const stored = marked === prev ? prev : core.store.put(storeKey(def), core.keyOfObj(def, prev), marked);
    sendJson(ctx, 200, objectJson(stored));
    return;
  }
  const gone = core.remove(def, prev) ?? prev;
  sendJson(ctx, 200, objectJson(gone));
}
