// The TokenRequest subresource (transcript 11, steps 18–21): POST /api/v1/namespaces/NS/serviceaccounts/NAME/token,
// expirationSeconds defaulted to 3600 and at least 600, 404 for a missing ServiceAccount, the answer's
// spec filled in (the API audience) and status.token + status.expirationTimestamp on the sim's clock.
import type { Core } from './core.ts';
import { invalid, notFound } from './errors.ts';
import type { Ctx } from './http.ts';
import { sendJson } from './http.ts';
import { obj } from './json.ts';
import { managerFromUserAgent } from './managed.ts';
import { readObject } from './mutate.ts';
import { API_AUDIENCE } from './tokens.ts';
import type { Json, JsonObject, ResourceDef } from './types.ts';

const MIN_SECONDS = 600;
const DEFAULT_SECONDS = 3600;
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const TOKEN_REQUEST: ResourceDef = {
  group: 'authentication.k8s.io',
  version: 'v1',
  resource: 'tokenrequests',
  kind: 'TokenRequest',
  listKind: 'TokenRequestList',
  singular: 'tokenrequest',
  namespaced: true,
  shortNames: [],
  hasStatus: false,
  builtin: true,
  verbs: ['create'],
  generation: false,
};

/** POST …/serviceaccounts/NAME/token. */
export async function tokenRequest(
  core: Core,
  ctx: Ctx,
  saDef: ResourceDef,
  ns: string,
  name: string,
): Promise<void> {
  const body = await readObject(ctx, TOKEN_REQUEST, core.limits.requestBodyBytes);
  const spec = obj(body.spec);
  const raw = spec.expirationSeconds;
  const seconds = typeof raw === 'number' ? raw : DEFAULT_SECONDS;
  const tooLong = seconds > 2 ** 32 ? 'may not specify a duration larger than 2^32 seconds' : undefined;
  const problem = seconds < MIN_SECONDS ? 'may not specify a duration less than 10 minutes' : tooLong;
  if (problem) {
    throw invalid('TokenRequest', 'authentication.k8s.io', '', [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${seconds}: ${problem}`,
        field: 'spec.expirationSeconds',
      },
    ]);
  }
  const sa = core.get(saDef, ns, name);
  if (!sa) throw notFound(saDef, name);
  const audiences =
    Array.isArray(spec.audiences) && spec.audiences.length > 0 ? spec.audiences.map(String) : [API_AUDIENCE];
  const now = core.now();
  const issued = core.saTokens.issue(ns, name, String(sa.metadata.uid ?? ''), seconds, audiences);
  const fields: JsonObject = { 'f:expirationSeconds': {} };
  if (Array.isArray(spec.audiences)) fields['f:audiences'] = {};
  const sorted: JsonObject = {};
  for (const k of Object.keys(fields).sort()) sorted[k] = fields[k] as Json;
  sendJson(ctx, 201, {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: {
      name,
      namespace: ns,
      creationTimestamp: isoSeconds(now),
      managedFields: [
        {
          manager: ctx.query.get('fieldManager') ?? managerFromUserAgent(ctx.req.headers['user-agent']),
          operation: 'Update',
          apiVersion: 'authentication.k8s.io/v1',
          time: isoSeconds(now),
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:spec': sorted },
          subresource: 'token',
        },
      ],
    },
    spec: { audiences, expirationSeconds: seconds, boundObjectRef: spec.boundObjectRef ?? null },
    status: { token: issued.token, expirationTimestamp: isoSeconds(issued.expiresMs) },
  });
}
