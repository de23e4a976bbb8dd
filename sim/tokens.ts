// ServiceAccount tokens (transcript 11, steps 18–23): what the TokenRequest subresource
// (sim/token-request.ts) issues, a JWT-shaped bearer token for system:serviceaccount:NS:NAME. A token authenticates only while its ServiceAccount exists with the same
// uid and the sim's clock is before its expiry; otherwise the request is 401 like any unknown token.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { User } from './types.ts';

export const API_AUDIENCE = 'https://kubernetes.default.svc';
/** Tokens kept at most; the oldest are forgotten first (a forgotten token is 401). */
const MAX_TOKENS = 10_000;

interface Issued {
  namespace: string;
  name: string;
  uid: string;
  jti: string;
  expiresMs: number;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

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
