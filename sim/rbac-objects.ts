// The stored form and validation of RBAC objects (pkg/apis/rbac/v1 defaults, pkg/apis/rbac/validation):
// rules in PolicyRule field order, subjects' apiGroup defaulted for User/Group, roleRef immutable.
import type { Cause } from './errors.ts';
import { obj, str } from './json.ts';
import { CLUSTER_ROLE, CLUSTER_ROLE_BINDING, RBAC_GROUP, ROLE, ROLE_BINDING } from './rbac.ts';
import type { Json, JsonObject, KObj, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

const RULE_ORDER = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'];
const SUBJECT_ORDER = ['kind', 'apiGroup', 'name', 'namespace'];
const REF_ORDER = ['apiGroup', 'kind', 'name'];

function ordered(o: JsonObject, order: string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of order) if (o[k] !== undefined && o[k] !== null && o[k] !== '') out[k] = o[k] as Json;
  for (const [k, v] of Object.entries(o)) if (!(k in out) && !order.includes(k)) out[k] = v;
  return out;
}

/** Go's %#v of a []string. */
const goStrings = (v: Json | undefined) =>
  `[]string{${(Array.isArray(v) ? v : []).map((x) => JSON.stringify(String(x))).join(', ')}}`;

function decodeRole(o: KObj): { warnings: string[] } {
  if (Array.isArray(o.rules)) o.rules = o.rules.map((r) => (isObj(r) ? ordered(r, RULE_ORDER) : r));
  return { warnings: [] };
}

function decodeBinding(o: KObj): { warnings: string[] } {
  if (Array.isArray(o.subjects)) {
    o.subjects = o.subjects.map((s) => {
      if (!isObj(s)) return s;
      const kind = str(s.kind);
      const withGroup =
        !s.apiGroup && (kind === 'User' || kind === 'Group') ? { ...s, apiGroup: RBAC_GROUP } : s;
      return ordered(withGroup, SUBJECT_ORDER);
    });
  }
  if (isObj(o.roleRef)) {
    const ref = o.roleRef.apiGroup ? o.roleRef : { ...o.roleRef, apiGroup: RBAC_GROUP };
    o.roleRef = ordered(ref, REF_ORDER);
  }
  // Go struct order: subjects before roleRef.
  const { subjects, roleRef, ...rest } = o;
  for (const k of Object.keys(o)) if (k !== 'kind' && k !== 'apiVersion' && k !== 'metadata') delete o[k];
  if (subjects !== undefined) o.subjects = subjects;
  if (roleRef !== undefined) o.roleRef = roleRef;
  for (const [k, v] of Object.entries(rest)) if (!(k in o)) o[k] = v;
  return { warnings: [] };
}

function validateRules(o: KObj, namespaced: boolean): Cause[] {
  const causes: Cause[] = [];
  const rules = Array.isArray(o.rules) ? o.rules : [];
  rules.forEach((r, i) => {
    const rule = obj(r);
    const at = `rules[${i}]`;
    const has = (k: string) => Array.isArray(rule[k]) && (rule[k] as Json[]).length > 0;
    if (!has('verbs'))
      causes.push({
        reason: 'FieldValueRequired',
        message: 'Required value: verbs must contain at least one value',
        field: `${at}.verbs`,
      });
    if (has('nonResourceURLs')) {
      if (namespaced)
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${goStrings(rule.nonResourceURLs)}: namespaced rules cannot apply to non-resource URLs`,
          field: `${at}.nonResourceURLs`,
        });
      if (has('apiGroups') || has('resources') || has('resourceNames'))
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${goStrings(rule.nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`,
          field: `${at}.nonResourceURLs`,
        });
      return;
    }
    if (!has('apiGroups'))
      causes.push({
        reason: 'FieldValueRequired',
        message: 'Required value: resource rules must supply at least one api group',
        field: `${at}.apiGroups`,
      });
    if (!has('resources'))
      causes.push({
        reason: 'FieldValueRequired',
        message: 'Required value: resource rules must supply at least one resource',
        field: `${at}.resources`,
      });
  });
  return causes;
}

const supported = (v: string, values: string[]) =>
  `Unsupported value: ${JSON.stringify(v)}: supported values: ${values.map((x) => JSON.stringify(x)).join(', ')}`;

function goRoleRef(r: JsonObject): string {
  return `rbac.RoleRef{APIGroup:${JSON.stringify(str(r.apiGroup) ?? '')}, Kind:${JSON.stringify(str(r.kind) ?? '')}, Name:${JSON.stringify(str(r.name) ?? '')}}`;
}

function validateBinding(o: KObj, namespaced: boolean, prev?: KObj): Cause[] {
  const causes: Cause[] = [];
  const ref = obj(o.roleRef);
  const group = str(ref.apiGroup) ?? '';
  if (group !== RBAC_GROUP)
    causes.push({
      reason: 'FieldValueNotSupported',
      message: supported(group, [RBAC_GROUP]),
      field: 'roleRef.apiGroup',
    });
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = str(ref.kind) ?? '';
  if (!kinds.includes(kind))
    causes.push({ reason: 'FieldValueNotSupported', message: supported(kind, kinds), field: 'roleRef.kind' });
  if (!str(ref.name))
    causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: 'roleRef.name' });
  const subjects = Array.isArray(o.subjects) ? o.subjects : [];
  subjects.forEach((s, i) => {
    const sub = obj(s);
    const at = `subjects[${i}]`;
    const sk = str(sub.kind) ?? '';
    const sg = str(sub.apiGroup) ?? '';
    if (!str(sub.name))
      causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${at}.name` });
    if (sk === 'ServiceAccount') {
      if (sg !== '')
        causes.push({
          reason: 'FieldValueNotSupported',
          message: supported(sg, ['']),
          field: `${at}.apiGroup`,
        });
      if (!namespaced && !str(sub.namespace))
        causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${at}.namespace` });
    } else if (sk === 'User' || sk === 'Group') {
      if (sg !== RBAC_GROUP)
        causes.push({
          reason: 'FieldValueNotSupported',
          message: supported(sg, [RBAC_GROUP]),
          field: `${at}.apiGroup`,
        });
    } else
      causes.push({
        reason: 'FieldValueNotSupported',
        message: supported(sk, ['ServiceAccount', 'User', 'Group']),
        field: `${at}.kind`,
      });
  });
  if (prev) {
    const before = obj(prev.roleRef);
    if (REF_ORDER.some((k) => (str(before[k]) ?? '') !== (str(ref[k]) ?? '')))
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${goRoleRef(ref)}: cannot change roleRef`,
        field: 'roleRef',
      });
  }
  return causes;
}

export const RBAC_DEFS: ResourceDef[] = [
  { ...CLUSTER_ROLE_BINDING, decode: decodeBinding, validate: (o, prev) => validateBinding(o, false, prev) },
  { ...CLUSTER_ROLE, decode: decodeRole, validate: (o) => validateRules(o, false) },
  { ...ROLE_BINDING, decode: decodeBinding, validate: (o, prev) => validateBinding(o, true, prev) },
  { ...ROLE, decode: decodeRole, validate: (o) => validateRules(o, true) },
];
