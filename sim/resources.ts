// The resource registry: built-in kinds plus those served from CustomResourceDefinitions.
import { DEPLOYMENT_DEF } from './deployments.ts';
import { EVENT_DEFS } from './events.ts';
import { obj, str } from './json.ts';
import { LEASE_DEF } from './leases.ts';
import { POD_DEFS } from './pods.ts';
import { RBAC_DEFS } from './rbac-objects.ts';
import type { JsonObject, KObj, ResourceDef } from './types.ts';
import { CRUD_VERBS, isObj } from './types.ts';

// Custom resources list the same eight verbs as CRUD_VERBS, in the order a real server answers for them
// (not sorted: shared/real-api/01-discovery.txt, section 14).
const CR_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

function builtin(p: Partial<ResourceDef> & Pick<ResourceDef, 'resource' | 'kind' | 'singular'>): ResourceDef {
  return {
    group: '',
    version: 'v1',
    listKind: `${p.kind}List`,
    namespaced: false,
    shortNames: [],
    hasStatus: false,
    builtin: true,
    verbs: [...CRUD_VERBS],
    generation: false,
    ...p,
  };
}

export const BUILTINS: ResourceDef[] = [
  builtin({
    resource: 'configmaps',
    kind: 'ConfigMap',
    singular: 'configmap',
    namespaced: true,
    shortNames: ['cm'],
  }),
  builtin({
    resource: 'namespaces',
    kind: 'Namespace',
    singular: 'namespace',
    shortNames: ['ns'],
    hasStatus: true,
    verbs: CRUD_VERBS.filter((v) => v !== 'deletecollection'),
  }),
  builtin({ resource: 'nodes', kind: 'Node', singular: 'node', shortNames: ['no'], hasStatus: true }),
  builtin({
    group: 'apiextensions.k8s.io',
    resource: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    singular: 'customresourcedefinition',
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    hasStatus: true,
    generation: true,
  }),
  builtin({
    group: 'authorization.k8s.io',
    resource: 'selfsubjectaccessreviews',
    kind: 'SelfSubjectAccessReview',
    singular: 'selfsubjectaccessreview',
    verbs: ['create'],
    virtual: true,
  }),
  builtin({
    group: 'authorization.k8s.io',
    resource: 'selfsubjectrulesreviews',
    kind: 'SelfSubjectRulesReview',
    singular: 'selfsubjectrulesreview',
    verbs: ['create'],
    virtual: true,
  }),
  builtin({
    group: 'authentication.k8s.io',
    resource: 'selfsubjectreviews',
    kind: 'SelfSubjectReview',
    singular: 'selfsubjectreview',
    verbs: ['create'],
    virtual: true,
  }),
  ...EVENT_DEFS,
  ...POD_DEFS,
  LEASE_DEF,
  ...RBAC_DEFS,
  DEPLOYMENT_DEF,
];

/** The resource definition a CRD serves (its storage version), or undefined if none is served. */
export function defFromCrd(crd: KObj): ResourceDef | undefined {
  const spec = obj(crd.spec);
  const names = obj(spec.names);
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObj) : [];
  const v =
    versions.find((x) => x.storage === true && x.served !== false) ??
    versions.find((x) => x.served !== false);
  if (!v) return undefined;
  const kind = str(names.kind) ?? '';
  const schema = obj(v.schema).openAPIV3Schema;
  return {
    group: str(spec.group) ?? '',
    version: str(v.name) ?? 'v1',
    resource: str(names.plural) ?? '',
    kind,
    listKind: str(names.listKind) ?? `${kind}List`,
    singular: str(names.singular) ?? kind.toLowerCase(),
    namespaced: spec.scope === 'Namespaced',
    shortNames: Array.isArray(names.shortNames) ? names.shortNames.map(String) : [],
    categories: Array.isArray(names.categories) ? names.categories.map(String) : undefined,
    hasStatus: isObj(obj(v.subresources).status),
    builtin: false,
    verbs: CR_VERBS,
    schema: isObj(schema) ? (schema as JsonObject) : undefined,
    printerColumns: Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns.filter(isObj) : [],
    generation: true,
  };
}

export class Registry {
  private crds = new Map<string, ResourceDef>();

  setCrd(name: string, def: ResourceDef | undefined): void {
    if (def) this.crds.set(name, def);
    else this.crds.delete(name);
  }

  all(): ResourceDef[] {
    return [...BUILTINS, ...this.crds.values()];
  }

  find(group: string, version: string, resource: string): ResourceDef | undefined {
    return this.all().find((d) => d.group === group && d.version === version && d.resource === resource);
  }

  groupServed(group: string, version?: string): boolean {
    return this.all().some((d) => d.group === group && (version === undefined || d.version === version));
  }

  groups(): string[] {
    const seen: string[] = [];
    for (const d of this.all()) if (d.group && !seen.includes(d.group)) seen.push(d.group);
    return seen;
  }
}
