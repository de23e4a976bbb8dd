// SelfSubjectAccessReview, SelfSubjectRulesReview and SelfSubjectReview (created, never stored).
import type { Core } from './core.ts';
import { apiError } from './errors.ts';
import type { Ctx } from './http.ts';
import { sendJson } from './http.ts';
import { obj, str } from './json.ts';
import { readObject } from './mutate.ts';
import { grantsFor, isSuperuser } from './rbac.ts';
import type { JsonObject, ResourceDef, User } from './types.ts';

/** The rules RBAC gives the user in a namespace, as SelfSubjectRulesReview lists them (grant by grant). */
function rulesReview(
  core: Core,
  u: User,
  namespace: string,
): { resourceRules: JsonObject[]; nonResourceRules: JsonObject[] } {
  const resourceRules: JsonObject[] = [];
  const nonResourceRules: JsonObject[] = [];
  if (isSuperuser(u)) {
    resourceRules.push({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
    nonResourceRules.push({ verbs: ['*'], nonResourceURLs: ['*'] });
  }
  for (const g of grantsFor(core, u, namespace)) {
    for (const r of g.rules) {
      if (r.nonResourceURLs.length > 0) {
        nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
        continue;
      }
      const rule: JsonObject = { verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources };
      if (r.resourceNames.length > 0) rule.resourceNames = r.resourceNames;
      resourceRules.push(rule);
    }
  }
  return { resourceRules, nonResourceRules };
}

export async function review(core: Core, ctx: Ctx, def: ResourceDef): Promise<void> {
  const body = await readObject(ctx, def, core.limits.requestBodyBytes);
  const u = ctx.user;
  if (def.resource === 'selfsubjectreviews') {
    const userInfo: JsonObject = { username: u.name };
    if (u.uid) userInfo.uid = u.uid;
    userInfo.groups = u.groups;
    if (u.extra) userInfo.extra = u.extra;
    sendJson(ctx, 201, {
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: new Date(core.now()).toISOString().replace(/\.\d{3}Z$/, 'Z') },
      status: { userInfo },
    });
    return;
  }
  if (def.resource === 'selfsubjectrulesreviews') {
    sendJson(ctx, 201, {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: {},
      status: { ...rulesReview(core, u, str(obj(body.spec).namespace) ?? ''), incomplete: false },
    });
    return;
  }
  const spec = obj(body.spec);
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if ((ra === undefined) === (nra === undefined)) {
    throw apiError(
      422,
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      'Invalid',
      {
        group: 'authorization.k8s.io',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message:
              'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
            field: 'spec.resourceAttributes',
          },
        ],
      },
    );
  }
  const a = obj(ra);
  const attrs = ra
    ? {
        verb: str(a.verb) ?? '',
        group: str(a.group) ?? '',
        resource: str(a.resource) ?? '',
        subresource: str(a.subresource) ?? '',
        name: str(a.name) ?? '',
        namespace: str(a.namespace) ?? '',
      }
    : {
        verb: str(obj(nra).verb) ?? '',
        group: '',
        resource: '',
        subresource: '',
        name: '',
        namespace: '',
        path: str(obj(nra).path) ?? '',
      };
  const { allowed, reason } = core.authorize(u, attrs);
  const status: JsonObject = { allowed };
  if (reason) status.reason = reason;
  const cleanRa: JsonObject = {};
  for (const [k, v] of Object.entries(a)) if (v !== '') cleanRa[k] = v;
  sendJson(ctx, 201, {
    kind: 'SelfSubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec: ra ? { resourceAttributes: cleanRa } : { nonResourceAttributes: obj(nra) },
    status,
  });
}
