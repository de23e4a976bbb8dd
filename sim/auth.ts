// Bearer-token authentication (the sim's fixed users; ServiceAccount tokens through sim/tokens.ts) and the
// 403 text. What a user may do is RBAC's answer (sim/rbac.ts): admin and revocable are system:masters,
// readonly is bound to the seeded ClusterRole sim-node-reader (get/list/watch nodes and pods; not pods/proxy),
// nodesonly to sim-nodes-only-reader (get/list/watch nodes: pods are forbidden, as for a user given only nodes).
import { randomBytes } from 'node:crypto';
import { ApiError, apiError, statusBody } from './errors.ts';
import type { Attributes } from './rbac.ts';
import type { JsonObject, User } from './types.ts';

export type SimUser = 'admin' | 'readonly' | 'revocable' | 'nodesonly';

export const ANONYMOUS: User = { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'] };

export type { Attributes } from './rbac.ts';

const USERS: Record<SimUser, User> = {
  admin: { name: 'sim-admin', uid: 'sim-admin-uid', groups: ['system:masters', 'system:authenticated'] },
  readonly: {
    name: 'sim-readonly',
    uid: 'sim-readonly-uid',
    groups: ['sim:readonly', 'system:authenticated'],
  },
  nodesonly: {
    name: 'sim-nodesonly',
    uid: 'sim-nodesonly-uid',
    groups: ['system:authenticated'],
  },
  revocable: {
    name: 'sim-revocable',
    uid: 'sim-revocable-uid',
    groups: ['system:masters', 'system:authenticated'],
  },
};

export class Auth {
  readonly tokens: Record<SimUser, string>;
  private readonly revoked = new Set<string>();

  constructor() {
    const t = () => randomBytes(24).toString('base64url');
    this.tokens = { admin: t(), readonly: t(), revocable: t(), nodesonly: t() };
  }

  revoke(user: SimUser): void {
    this.revoked.add(this.tokens[user]);
  }

  /**
   * The user behind an Authorization header; throws 401 for an unknown or revoked bearer token. `other`
   * answers for tokens that are not the sim's fixed ones (ServiceAccount tokens): a user, null when it does
   * not know the token, 'invalid' when it knows it but it no longer authenticates.
   */
  authenticate(
    header: string | undefined,
    other: (token: string) => User | null | 'invalid' = () => null,
  ): User {
    if (!header?.startsWith('Bearer ')) return ANONYMOUS;
    const token = header.slice(7).trim();
    for (const [k, v] of Object.entries(this.tokens)) {
      if (v === token && !this.revoked.has(v)) return USERS[k as SimUser];
    }
    const u = other(token);
    if (u && u !== 'invalid') return u;
    throw new ApiError(401, statusBody(401, 'Unauthorized', 'Unauthorized'));
  }
}

export function forbidden(u: User, a: Attributes): ApiError {
  if (a.path !== undefined) {
    return apiError(403, `forbidden: User "${u.name}" cannot get path "${a.path}"`, 'Forbidden', {});
  }
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const what = a.name ? `${qualified} "${a.name}"` : qualified;
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  const details: JsonObject = {};
  if (a.name) details.name = a.name;
  if (a.group) details.group = a.group;
  details.kind = a.resource;
  return apiError(
    403,
    `${what} is forbidden: User "${u.name}" cannot ${a.verb} resource "${res}" in API group "${a.group}" ${scope}`,
    'Forbidden',
    details,
  );
}

/**
 * The 403 of a write that would create its object without `create` (an apply PATCH to a missing object):
 * the apiserver asks the authorizer again with verb create (rest.WithAuthorization) and answers with the
 * same sentence as any refused request, the verb create and the object's name in it:
 * `configmaps "cm-apply" is forbidden: User "system:serviceaccount:NS:NAME" cannot create resource
 * "configmaps" in API group "" in the namespace "NS"`.
 */
export function forbiddenCreate(u: User, a: Attributes): ApiError {
  return forbidden(u, { ...a, verb: 'create' });
}
