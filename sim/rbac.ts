// RBAC as kube-apiserver evaluates it (transcripts 08 and 11): Roles, ClusterRoles, RoleBindings and
// ClusterRoleBindings read from the store on every request (a change applies at once), rules matched like
// k8s.io/component-helpers/auth/rbac (verbs, apiGroups, resources with subresources and "*/sub",
// resourceNames, nonResourceURLs with a trailing "*"), system:masters allowed before RBAC (its own
// authorizer, so no reason), and the allow reason naming the binding.
import { obj, str } from './json.ts';
import type { Json, JsonObject, KObj, ResourceDef, User } from './types.ts';
import { CRUD_VERBS, isObj } from './types.ts';

export interface Attributes {
  verb: string;
  group: string;
  resource: string;
  subresource: string;
  name: string;
  namespace: string;
  /** Set for a non-resource request (the URL path). */
  path?: string;
}

/** The slice of Core RBAC reads (declared here: core.ts imports this file). */
export interface RbacStore {
  get(def: ResourceDef, namespace: string, name: string): KObj | undefined;
  list(def: ResourceDef): KObj[];
}

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

function rbacDef(resource: string, kind: string, namespaced: boolean): ResourceDef {
  return {
    group: RBAC_GROUP,
    version: 'v1',
    resource,
    kind,
    listKind: `${kind}List`,
    singular: kind.toLowerCase(),
    namespaced,
    shortNames: [],
    hasStatus: false,
    builtin: true,
    verbs: [...CRUD_VERBS],
    generation: false,
  };
}

export const ROLE = rbacDef('roles', 'Role', true);
export const CLUSTER_ROLE = rbacDef('clusterroles', 'ClusterRole', false);
export const ROLE_BINDING = rbacDef('rolebindings', 'RoleBinding', true);
export const CLUSTER_ROLE_BINDING = rbacDef('clusterrolebindings', 'ClusterRoleBinding', false);

export interface Rule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

const strings = (v: Json | undefined): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

export function rulesOf(role: KObj | undefined): Rule[] {
  if (!role || !Array.isArray(role.rules)) return [];
  return role.rules.filter(isObj).map((r) => ({
    verbs: strings(r.verbs),
    apiGroups: strings(r.apiGroups),
    resources: strings(r.resources),
    resourceNames: strings(r.resourceNames),
    nonResourceURLs: strings(r.nonResourceURLs),
  }));
}

function resourceMatches(rule: Rule, a: Attributes): boolean {
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return rule.resources.some(
    (r) => r === '*' || r === combined || (a.subresource !== '' && r === `*/${a.subresource}`),
  );
}

/** One rule allows the request (RuleAllows of the real authorizer). */
export function ruleAllows(rule: Rule, a: Attributes): boolean {
  if (!rule.verbs.includes('*') && !rule.verbs.includes(a.verb)) return false;
  if (a.path !== undefined) {
    const path = a.path;
    return rule.nonResourceURLs.some(
      (u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))),
    );
  }
  if (!rule.apiGroups.includes('*') && !rule.apiGroups.includes(a.group)) return false;
  if (!resourceMatches(rule, a)) return false;
  return rule.resourceNames.length === 0 || rule.resourceNames.includes(a.name);
}

interface Subject {
  kind: string;
  name: string;
  namespace: string;
}

function subjectsOf(binding: KObj): Subject[] {
  const subs = Array.isArray(binding.subjects) ? binding.subjects.filter(isObj) : [];
  return subs.map((s) => ({
    kind: str(s.kind) ?? '',
    name: str(s.name) ?? '',
    namespace: str(s.namespace) ?? '',
  }));
}

function appliesTo(s: Subject, u: User, bindingNs: string): boolean {
  if (s.kind === 'User') return s.name === u.name;
  if (s.kind === 'Group') return u.groups.includes(s.name);
  if (s.kind === 'ServiceAccount')
    return u.name === `system:serviceaccount:${s.namespace || bindingNs}:${s.name}`;
  return false;
}

function describeSubject(s: Subject, bindingNs: string): string {
  if (s.kind === 'ServiceAccount')
    return `ServiceAccount ${JSON.stringify(`${s.name}/${s.namespace || bindingNs}`)}`;
  return `${s.kind} ${JSON.stringify(s.name)}`;
}

/** A binding that applies to the user, the rules of the role it refers to, and how a reason names it. */
interface Grant {
  rules: Rule[];
  describe: string;
}

function roleRef(binding: KObj): { kind: string; name: string } {
  const r = obj(binding.roleRef);
  return { kind: str(r.kind) ?? '', name: str(r.name) ?? '' };
}

/** Bootstrap bindings first (the real server's informer happens to list them so), then by name. */
function ordered(list: KObj[]): KObj[] {
  const sys = (o: KObj) => String(o.metadata.name ?? '').startsWith('system:');
  return [...list.filter(sys), ...list.filter((o) => !sys(o))];
}

/** Every grant the user has in `namespace` ('' = cluster scope: ClusterRoleBindings only). */
export function grantsFor(core: RbacStore, u: User, namespace: string): Grant[] {
  const out: Grant[] = [];
  const clusterRole = (name: string) => core.get(CLUSTER_ROLE, '', name);
  for (const b of ordered(core.list(CLUSTER_ROLE_BINDING))) {
    const ref = roleRef(b);
    if (ref.kind !== 'ClusterRole') continue;
    const s = subjectsOf(b).find((x) => appliesTo(x, u, ''));
    if (!s) continue;
    out.push({
      rules: rulesOf(clusterRole(ref.name)),
      describe: `ClusterRoleBinding ${JSON.stringify(String(b.metadata.name))} of ClusterRole ${JSON.stringify(ref.name)} to ${describeSubject(s, '')}`,
    });
  }
  if (!namespace) return out;
  for (const b of core.list(ROLE_BINDING).filter((x) => x.metadata.namespace === namespace)) {
    const ref = roleRef(b);
    const bindingNs = String(b.metadata.namespace ?? '');
    const s = subjectsOf(b).find((x) => appliesTo(x, u, bindingNs));
    if (!s) continue;
    const role =
      ref.kind === 'Role'
        ? core.get(ROLE, namespace, ref.name)
        : ref.kind === 'ClusterRole'
          ? clusterRole(ref.name)
          : undefined;
    // A RoleBinding grants resource rules only (non-resource URLs are cluster-wide).
    const rules = rulesOf(role).filter((r) => r.nonResourceURLs.length === 0);
    out.push({
      rules,
      describe: `RoleBinding ${JSON.stringify(`${String(b.metadata.name)}/${namespace}`)} of ${ref.kind} ${JSON.stringify(ref.name)} to ${describeSubject(s, bindingNs)}`,
    });
  }
  return out;
}

export function isSuperuser(u: User): boolean {
  return u.groups.includes('system:masters');
}

/** Allowed, and the reason a SelfSubjectAccessReview reports (RBAC's "allowed by …", none for masters). */
export function authorize(core: RbacStore, u: User, a: Attributes): { allowed: boolean; reason?: string } {
  if (isSuperuser(u)) return { allowed: true };
  for (const g of grantsFor(core, u, a.path === undefined ? a.namespace : '')) {
    if (g.rules.some((r) => ruleAllows(r, a)))
      return { allowed: true, reason: `RBAC: allowed by ${g.describe}` };
  }
  return { allowed: false };
}

const rule = (verbs: string[], apiGroups: string[], resources: string[]): JsonObject => ({
  verbs,
  apiGroups,
  resources,
});
const urls = (nonResourceURLs: string[]): JsonObject => ({ verbs: ['get'], nonResourceURLs });

/** The bootstrap roles every server has (as far as the transcripts show them), and the sim's own users. */
const BOOTSTRAP: { name: string; rules: JsonObject[]; groups: string[]; users?: string[] }[] = [
  {
    name: 'system:basic-user',
    rules: [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ],
    groups: ['system:authenticated'],
  },
  {
    name: 'system:discovery',
    rules: [
      urls([
        '/api',
        '/api/*',
        '/apis',
        '/apis/*',
        '/healthz',
        '/livez',
        '/openapi',
        '/openapi/*',
        '/readyz',
        '/version',
        '/version/',
      ]),
    ],
    groups: ['system:authenticated'],
  },
  {
    name: 'system:public-info-viewer',
    rules: [urls(['/healthz', '/livez', '/readyz', '/version', '/version/'])],
    groups: ['system:authenticated', 'system:unauthenticated'],
  },
  {
    name: 'system:service-account-issuer-discovery',
    rules: [
      urls([
        '/.well-known/openid-configuration',
        '/.well-known/openid-configuration/',
        '/openid/v1/jwks',
        '/openid/v1/jwks/',
      ]),
    ],
    groups: ['system:serviceaccounts'],
  },
  {
    name: 'sim-node-reader',
    // Pods too, for the DCGM exporter discovery; pods/proxy (a subresource) stays forbidden.
    rules: [rule(['get', 'list', 'watch'], [''], ['nodes', 'pods'])],
    groups: [],
    users: ['sim-readonly'],
  },
  {
    name: 'sim-nodes-only-reader',
    // Nodes only: listing pods is forbidden (free GPUs are then unknown, never 0).
    rules: [rule(['get', 'list', 'watch'], [''], ['nodes'])],
    groups: [],
    users: ['sim-nodesonly'],
  },
];

/** Stores the bootstrap ClusterRoles and their ClusterRoleBindings. */
export function seedRbac(
  core: RbacStore & { write(def: ResourceDef, o: KObj, prev: undefined): unknown },
): void {
  for (const b of BOOTSTRAP) {
    core.write(
      CLUSTER_ROLE,
      { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name: b.name }, rules: b.rules },
      undefined,
    );
    const subjects: JsonObject[] = [
      ...b.groups.map((g) => ({ kind: 'Group', apiGroup: RBAC_GROUP, name: g })),
      ...(b.users ?? []).map((n) => ({ kind: 'User', apiGroup: RBAC_GROUP, name: n })),
    ];
    core.write(
      CLUSTER_ROLE_BINDING,
      {
        apiVersion: `${RBAC_GROUP}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: b.name },
        subjects,
        roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: b.name },
      },
      undefined,
    );
  }
}
