// Bearer-token authentication and a tiny RBAC: admin may do anything, readonly may get/list/watch nodes and pods.
import { randomBytes } from 'node:crypto';
import { ApiError, apiError, statusBody } from './errors.ts';
import type { JsonObject, User } from './types.ts';

export type SimUser = 'admin' | 'readonly' | 'revocable';

export const ANONYMOUS: User = { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'] };

export interface Attributes {
  verb: string;
  group: string;
  resource: string;
  subresource: string;
  name: string;
  namespace: string;
  path?: string;
}

const USERS: Record<SimUser, User> = {
  admin: { name: 'sim-admin', uid: 'sim-admin-uid', groups: ['system:masters', 'system:authenticated'] },
  readonly: {
    name: 'sim-readonly',
    uid: 'sim-readonly-uid',
    groups: ['sim:readonly', 'system:authenticated'],
  },
  revocable: {
    name: 'sim-revocable',
    uid: 'sim-revocable-uid',
    groups: ['system:masters', 'system:authenticated'],
  },
};

const PUBLIC_PATHS = ['/version', '/healthz', '/readyz', '/livez'];
const SELF_REVIEWS = ['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'selfsubjectreviews'];

export class Auth {
  readonly tokens: Record<SimUser, string>;
  private readonly revoked = new Set<string>();

  constructor() {
    const t = () => randomBytes(24).toString('base64url');
    this.tokens = { admin: t(), readonly: t(), revocable: t() };
  }

  revoke(user: SimUser): void {
    this.revoked.add(this.tokens[user]);
  }

  /** The user behind an Authorization header; throws 401 for an unknown or revoked bearer token. */
  authenticate(header: string | undefined): User {
    if (!header?.startsWith('Bearer ')) return ANONYMOUS;
    const token = header.slice(7).trim();
    for (const [k, v] of Object.entries(this.tokens)) {
      if (v === token && !this.revoked.has(v)) return USERS[k as SimUser];
    }
    throw new ApiError(401, statusBody(401, 'Unauthorized', 'Unauthorized'));
  }

  isAdmin(u: User): boolean {
    return u.groups.includes('system:masters');
  }

  allowed(u: User, a: Attributes): boolean {
    if (this.isAdmin(u)) return true;
    if (a.path !== undefined) {
      if (PUBLIC_PATHS.includes(a.path)) return true;
      return u !== ANONYMOUS && (a.path.startsWith('/api') || a.path.startsWith('/openapi'));
    }
    if (u === ANONYMOUS) return false;
    if (SELF_REVIEWS.includes(a.resource) && a.verb === 'create') return true;
    return (
      u.groups.includes('sim:readonly') &&
      a.group === '' &&
      // Nodes, and pods for the DCGM exporter discovery; pods/proxy (a subresource) stays forbidden.
      (a.resource === 'nodes' || a.resource === 'pods') &&
      a.subresource === '' &&
      ['get', 'list', 'watch'].includes(a.verb)
    );
  }

  reason(u: User, a: Attributes): string | undefined {
    if (this.isAdmin(u) || !this.allowed(u, a)) return undefined;
    if (a.resource === 'nodes') {
      return `RBAC: allowed by ClusterRoleBinding "sim-node-reader" of ClusterRole "sim-node-reader" to User "${u.name}"`;
    }
    return undefined;
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
