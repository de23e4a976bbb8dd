// Per-kind defaults and validation on writes: node taint/status defaults, namespaces, CRD status, CR schemas.
import type { Core } from './core.ts';
import { prune, rootSchema, validate } from './crschema.ts';
import { apiError, badRequest, invalid } from './errors.ts';
import { eventCreate } from './events.ts';
import { obj, str } from './json.ts';
import { podCreate } from './pods.ts';
import type { JsonObject, KObj, ResourceDef } from './types.ts';
import { apiVersionOf, isObj } from './types.ts';

const DNS1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export const EMPTY_NODE_INFO: JsonObject = {
  machineID: '',
  systemUUID: '',
  bootID: '',
  kernelVersion: '',
  osImage: '',
  containerRuntimeVersion: '',
  kubeletVersion: '',
  kubeProxyVersion: '',
  operatingSystem: '',
  architecture: '',
};

/** Checks kind/apiVersion of a POST/PUT body against the URL's resource. */
export function checkKind(def: ResourceDef, body: KObj): void {
  const kind = str(body.kind);
  const av = str(body.apiVersion);
  if ((kind && kind !== def.kind) || (av && av !== apiVersionOf(def))) {
    throw badRequest(
      `${kind ?? ''} in version "${(av ?? '').split('/').pop() ?? ''}" cannot be handled as a ${def.kind}: converting (${av ?? ''}.${kind ?? ''}) to (${def.kind}): unknown conversion`,
    );
  }
}

/** Metadata and the kind's own validation (`prev`: the stored object an update replaces). */
export function validateMeta(def: ResourceDef, o: KObj, prev?: KObj): void {
  const name = String(o.metadata.name ?? '');
  validateMetaOnly(def, o, name);
  const causes = def.validate?.(o, prev) ?? [];
  if (causes.length > 0) throw invalid(def.kind, def.group, name, causes);
}

function validateMetaOnly(def: ResourceDef, o: KObj, name: string): void {
  if (def.resource !== 'configmaps' && !DNS1123.test(name)) {
    throw invalid(def.kind, def.group, name, [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        field: 'metadata.name',
      },
    ]);
  }
  for (const v of Object.values(obj(o.metadata.labels))) {
    if (typeof v !== 'string' || !LABEL_VALUE.test(v) || v.length > 63) {
      throw invalid(def.kind, def.group, name, [
        {
          reason: 'FieldValueInvalid',
          message: `Invalid value: "${String(v)}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
          field: 'metadata.labels',
        },
      ]);
    }
  }
}

/** Defaults applied when an object is created (admission plugins and strategies). */
export function createDefaults(core: Core, def: ResourceDef, o: KObj): void {
  if (def.namespaced) {
    const ns = String(o.metadata.namespace ?? '');
    const nsDef = core.registry.find('', 'v1', 'namespaces') as ResourceDef;
    const nsObj = core.get(nsDef, '', ns);
    if (!nsObj)
      throw apiError(404, `namespaces "${ns}" not found`, 'NotFound', { name: ns, kind: 'namespaces' });
    if (obj(nsObj.status).phase === 'Terminating') {
      throw apiError(
        403,
        `${def.resource} "${String(o.metadata.name)}" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
        'Forbidden',
        { name: String(o.metadata.name), kind: def.resource },
      );
    }
  }
  if (def.resource === 'nodes' && def.builtin) {
    const spec = obj(o.spec);
    const taints = Array.isArray(spec.taints) ? spec.taints : [];
    if (!taints.some((t) => isObj(t) && t.key === 'node.kubernetes.io/not-ready')) {
      o.spec = {
        ...spec,
        taints: [...taints, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }],
      };
    } else o.spec = spec;
    const st = obj(o.status);
    o.status = {
      ...st,
      daemonEndpoints: st.daemonEndpoints ?? { kubeletEndpoint: { Port: 0 } },
      nodeInfo: { ...EMPTY_NODE_INFO, ...obj(st.nodeInfo) },
    };
  }
  if (def.resource === 'namespaces' && def.builtin) {
    o.spec = { finalizers: ['kubernetes'], ...obj(o.spec) };
    o.status = { phase: 'Active' };
  }
  if (def.resource === 'customresourcedefinitions') {
    const spec = obj(o.spec);
    const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObj) : [];
    const storage = versions.find((v) => v.storage === true) ?? versions[0];
    o.spec = { ...spec, conversion: spec.conversion ?? { strategy: 'None' } };
    o.status = {
      conditions: null,
      acceptedNames: { plural: '', kind: '' },
      storedVersions: [str(storage?.name) ?? 'v1'],
    };
  }
  if (def.resource === 'deployments' && def.builtin) o.status = {};
  if (def.resource === 'events' && def.builtin) eventCreate(def, o);
  if (def.resource === 'pods' && def.builtin) podCreate(core, o);
  if (!def.builtin && def.hasStatus) delete o.status;
}

/** Validates and prunes a custom resource; returns Warning header values for pruned fields. */
export function checkCustom(def: ResourceDef, o: KObj, strict: boolean): string[] {
  if (def.builtin) return [];
  const schema = rootSchema(def.schema);
  const causes = validate(schema, o, '', '');
  if (causes.length > 0) throw invalid(def.kind, def.group, String(o.metadata.name ?? ''), causes);
  const unknown = prune(schema, o, '');
  if (unknown.length > 0 && strict) {
    throw invalid(
      def.kind,
      def.group,
      String(o.metadata.name ?? ''),
      unknown.map((u) => ({ reason: 'FieldValueInvalid', message: `unknown field "${u}"`, field: u })),
    );
  }
  return unknown.map((u) => `299 - "unknown field \\"${u}\\""`);
}
