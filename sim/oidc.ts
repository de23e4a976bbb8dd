// OIDC ID-token authentication, as a kube-apiserver started with --oidc-issuer-url, --oidc-client-id and
// --oidc-groups-claim does it (_unrecorded_: the transcripts hold no OIDC exchange; from the Kubernetes
// documentation): the token is a JWT signed RS256 by the issuer, its `iss` is the issuer URL, its `aud`
// holds the client id, and it has not expired; the user is `<issuer>#<sub>` (the default prefix for a
// claim other than email) with the groups of the groups claim. A real server fetches the issuer's keys
// from its discovery document; the sim is handed the public key instead.
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import type { User } from './types.ts';

export interface OidcIssuer {
  /** The issuer URL, exactly as the tokens' `iss`. */
  issuerUrl: string;
  clientId: string;
  /** The issuer's RS256 public key (PEM). */
  publicKeyPem: string;
  /** The claim that holds the user's groups (--oidc-groups-claim); none by default. */
  groupsClaim?: string;
}

/** Far above any ID token an issuer mints; a longer bearer token is not looked at. */
const TOKEN_MAX_CHARS = 16_384;

function part(text: string | undefined): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(text ?? '', 'base64url').toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export class OidcAuthenticator {
  readonly #key: KeyObject;

  constructor(
    readonly issuer: OidcIssuer,
    private readonly now: () => number,
  ) {
    this.#key = createPublicKey(issuer.publicKeyPem);
  }

  #verifies(data: string, signature: string): boolean {
    try {
      return verify('sha256', Buffer.from(data), this.#key, Buffer.from(signature, 'base64url'));
    } catch {
      return false;
    }
  }

  /**
   * The user of an ID token of this issuer; null when the token is not one (another authenticator may
   * know it), 'invalid' when it claims to be but does not verify (signature, audience, expiry).
   */
  authenticate(token: string): User | null | 'invalid' {
    if (token.length > TOKEN_MAX_CHARS) return null;
    const [h, p, s, extra] = token.split('.');
    if (extra !== undefined || s === undefined) return null;
    const header = part(h);
    const claims = part(p);
    if (!header || !claims || claims.iss !== this.issuer.issuerUrl) return null;
    const signed = header.alg === 'RS256' && this.#verifies(`${h}.${p}`, s);
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const live = typeof claims.exp === 'number' && this.now() < claims.exp * 1000;
    if (!signed || !aud.includes(this.issuer.clientId) || !live || typeof claims.sub !== 'string')
      return 'invalid';
    const raw = this.issuer.groupsClaim ? claims[this.issuer.groupsClaim] : undefined;
    const groups = Array.isArray(raw) ? raw.filter((g): g is string => typeof g === 'string') : [];
    return {
      name: `${this.issuer.issuerUrl}#${claims.sub}`,
      uid: '',
      groups: [...groups, 'system:authenticated'],
    };
  }
}
