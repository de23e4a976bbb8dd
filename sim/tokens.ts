// ServiceAccount tokens (transcript 11, steps 18–23): the TokenRequest subresource
// POST /api/v1/namespaces/NS/serviceaccounts/NAME/token answers a JWT-shaped bearer token for
// system:serviceaccount:NS:NAME. A token authenticates only while its ServiceAccount exists with the same
// uid and the sim's clock is before its expiry; otherwise the request is 401 like any unknown token.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Core } from './core.ts';
import { apiError, notFound } from './errors.ts';
import type { Ctx } from './http.ts';
import { sendJson } from './http.ts';
import { obj } from './json.ts';
import { managerFromUserAgent } from './managed.ts';
import { readObject } from './mutate.ts';
import type { Json, JsonObject, ResourceDef, User } from './types.ts';

export const API_AUDIENCE = 'https://kubernetes.default.svc';
const MIN_SECONDS = 600;
const DEFAULT_SECONDS = 3600;
/** Tokens kept at most; the oldest are forgotten first (a forgotten token is 401). */
const MAX_TOKENS = 10_000;

interface Issued {
  namespace: string;
  name: string;
  uid: string;
  jti: string;
  expiresMs: number;
}

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

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class ServiceAccountTokens {
  private readonly issued = new Map<string, Issued>();
  private readonly key = randomBytes(32);
  private readonly kid = randomBytes(32).toString('base64url').slice(0, 43);

  constructor(private readonly now: () => number) {}

  /** A signed JWT-shaped token for the ServiceAccount (HS256 under the hood: the sim is its only reader). */
  issue(
    namespace: string,
    name: string,
    uid: string,
    seconds: number,
    audiences: string[],
  ): { token: string; expiresMs: number; jti: string } {
    const iat = Math.floor(this.now() / 1000);
    const jti = randomUUID();
    const payload = {
      aud: audiences,
      exp: iat + seconds,
      iat,
      iss: API_AUDIENCE,
      jti,
      'kubernetes.io': { namespace, serviceaccount: { name, uid } },
      nbf: iat,
      sub: `system:serviceaccount:${namespace}:${name}`,
    };
    const body = `${b64({ alg: 'RS256', kid: this.kid })}.${b64(payload)}`;
    const token = `${body}.${createHmac('sha256', this.key).update(body).digest('base64url')}`;
    const expiresMs = (iat + seconds) * 1000;
    this.issued.set(token, { namespace, name, uid, jti, expiresMs });
    if (this.issued.size > MAX_TOKENS) this.issued.delete(this.issued.keys().next().value as string);
    return { token, expiresMs, jti };
  }

  /** The credential id ("JTI=…") of a token this sim issued, else undefined. */
  credentialOf(token: string): string | undefined {
    const t = this.issued.get(token);
    return t ? `JTI=${t.jti}` : undefined;
  }

  /**
   * The user behind a token this sim issued; null when the token is not one of ours, 'invalid' when it is
   * but has expired or its ServiceAccount is gone (or was re-created with another uid).
   */
  authenticate(
    token: string,
    saUid: (namespace: string, name: string) => string | undefined,
  ): User | null | 'invalid' {
    const t = this.issued.get(token);
    if (!t) return null;
    if (this.now() >= t.expiresMs || saUid(t.namespace, t.name) !== t.uid) return 'invalid';
    return {
      name: `system:serviceaccount:${t.namespace}:${t.name}`,
      uid: t.uid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${t.namespace}`, 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${t.jti}`] },
      credential: `JTI=${t.jti}`,
    };
  }
}

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
  if (seconds < MIN_SECONDS) {
    const message = `Invalid value: ${seconds}: may not specify a duration less than 10 minutes`;
    throw apiError(
      422,
      `TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: ${message}`,
      'Invalid',
      {
        group: 'authentication.k8s.io',
        kind: 'TokenRequest',
        causes: [{ reason: 'FieldValueInvalid', message, field: 'spec.expirationSeconds' }],
      },
    );
  }
  if (seconds > 2 ** 32) {
    const message = `Invalid value: ${seconds}: may not specify a duration larger than 2^32 seconds`;
    throw apiError(
      422,
      `TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: ${message}`,
      'Invalid',
      {
        group: 'authentication.k8s.io',
        kind: 'TokenRequest',
        causes: [{ reason: 'FieldValueInvalid', message, field: 'spec.expirationSeconds' }],
      },
    );
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
