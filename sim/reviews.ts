// SelfSubjectAccessReview, SelfSubjectRulesReview and SelfSubjectReview (created, never stored).
import type { Core } from './core.ts';
import { apiError } from './errors.ts';
import type { Ctx } from './http.ts';
import { sendJson } from './http.ts';
import { obj, str } from './json.ts';
import { readObject } from './mutate.ts';
import type { JsonObject, ResourceDef } from './types.ts';

export async function review(core: Core, ctx: Ctx, def: ResourceDef): Promise<void> {
  const body = await readObject(ctx, def, core.limits.requestBodyBytes);
  const u = ctx.user;
  if (def.resource === 'selfsubjectreviews') {
    sendJson(ctx, 201, {
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') },
      status: { userInfo: { username: u.name, uid: u.uid, groups: u.groups } },
    });
    return;
  }
  if (def.resource === 'selfsubjectrulesreviews') {
    const admin = core.auth.isAdmin(u);
    const rules = admin
      ? [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]
      : [
          { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['nodes'] },
          {
            verbs: ['create'],
            apiGroups: ['authorization.k8s.io'],
            resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
          },
        ];
    sendJson(ctx, 201, {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: obj(body.spec),
      status: {
        resourceRules: rules,
        nonResourceRules: [
          {
            verbs: ['get'],
            nonResourceURLs: [
              '/api',
              '/api/*',
              '/apis',
              '/apis/*',
              '/healthz',
              '/livez',
              '/readyz',
              '/version',
              '/version/',
            ],
          },
        ],
        incomplete: false,
      },
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
  const allowed = core.auth.allowed(u, attrs);
  const status: JsonObject = { allowed };
  const reason = core.auth.reason(u, attrs);
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
