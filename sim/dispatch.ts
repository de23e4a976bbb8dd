// Request routing: authentication, authorization, discovery, and resource verbs.
import type { Attributes } from './auth.ts';
import { forbidden } from './auth.ts';
import type { Core } from './core.ts';
import { serveDiscovery } from './discovery.ts';
import { apiError, methodNotAllowed, unknownResource } from './errors.ts';
import type { Ctx } from './http.ts';
import { sendBytes, sendText404 } from './http.ts';
import { create, isDryRun, remove, update } from './mutate.ts';
import { serveOpenApi } from './openapi.ts';
import { patch } from './patching.ts';
import { deletePod } from './pods.ts';
import { getOne, list } from './read.ts';
import { review } from './reviews.ts';
import { tokenRequest } from './token-request.ts';
import { watch } from './watch.ts';

interface ResRoute {
  group: string;
  version: string;
  resource: string;
  namespace: string;
  name: string;
  subresource: string;
}

export function parseRoute(parts: string[]): ResRoute | undefined {
  let rest: string[];
  let group = '';
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    version = parts[1] as string;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1] as string;
    version = parts[2] as string;
    rest = parts.slice(3);
  } else return undefined;
  let namespace = '';
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && ['status', 'finalize'].includes(rest[2] as string))
  ) {
    namespace = rest[1] as string;
    rest = rest.slice(2);
  }
  if (rest.length > 3) return undefined;
  const [resource = '', name = '', subresource = ''] = rest;
  return { group, version, resource, namespace, name, subresource };
}

/** A non-resource request's verb is its method in lower case (HEAD reads as get). */
function nonResourceVerb(method: string): string {
  return method === 'HEAD' ? 'get' : method.toLowerCase();
}

function verbOf(method: string, r: ResRoute, watching: boolean): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return r.name ? 'get' : watching ? 'watch' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return r.name ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}

export async function dispatch(core: Core, ctx: Ctx): Promise<void> {
  const parts = ctx.path.split('/').filter(Boolean);
  const route = parseRoute(parts);
  if (!route) {
    const attrs: Attributes = {
      verb: nonResourceVerb(ctx.method),
      group: '',
      resource: '',
      subresource: '',
      name: '',
      namespace: '',
      path: ctx.path,
    };
    if (!core.authorize(ctx.user, attrs).allowed) throw forbidden(ctx.user, attrs);
    if (ctx.path === '/version') {
      sendBytes(ctx, 200, Buffer.from(JSON.stringify(core.options.version, null, 2)), {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-cache, private',
      });
      return;
    }
    if (['/healthz', '/readyz', '/livez'].includes(ctx.path)) {
      sendBytes(ctx, 200, Buffer.from('ok'), {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
      });
      return;
    }
    if (ctx.method === 'GET' && serveOpenApi(core, ctx)) return;
    if (
      (parts[0] === 'api' || parts[0] === 'apis') &&
      ctx.method === 'GET' &&
      serveDiscovery(core, ctx, parts)
    )
      return;
    sendText404(ctx);
    return;
  }
  const watching = ctx.query.get('watch') === 'true' || ctx.query.get('watch') === '1';
  const attrs: Attributes = { verb: verbOf(ctx.method, route, watching), ...route };
  if (!core.authorize(ctx.user, attrs).allowed) throw forbidden(ctx.user, attrs);
  if (!core.registry.groupServed(route.group, route.version)) {
    if (route.group === '') throw unknownResource();
    sendText404(ctx);
    return;
  }
  const def = core.registry.find(route.group, route.version, route.resource);
  if (!def || (route.namespace && !def.namespaced)) throw unknownResource();
  const { namespace: ns, name, subresource: sub } = route;
  const token = sub === 'token' && def.builtin && def.resource === 'serviceaccounts';
  if (
    sub &&
    !(sub === 'status' && def.hasStatus) &&
    !(sub === 'finalize' && def.resource === 'namespaces') &&
    !token
  )
    throw unknownResource();
  if (token) {
    if (ctx.method !== 'POST') throw methodNotAllowed();
    await tokenRequest(core, ctx, def, ns, name);
    return;
  }
  if (def.virtual) {
    if (ctx.method !== 'POST' || name) throw methodNotAllowed();
    await review(core, ctx, def);
    return;
  }
  switch (ctx.method) {
    case 'GET':
      if (name) getOne(core, ctx, def, ns, name);
      else if (watching) watch(core, ctx, def, ns, '');
      else await list(core, ctx, def, ns);
      return;
    case 'POST':
      if (name) throw methodNotAllowed();
      await create(core, ctx, def, ns);
      return;
    case 'PUT':
      if (!name) throw methodNotAllowed();
      await update(core, ctx, def, ns, name, sub === 'finalize' ? 'status' : sub);
      return;
    case 'PATCH':
      if (!name) throw methodNotAllowed();
      await patch(core, ctx, def, ns, name, sub);
      return;
    case 'DELETE':
      if (!name || sub) throw methodNotAllowed();
      if (def.resource === 'pods' && def.builtin && !isDryRun(ctx, 'DeleteOptions'))
        await deletePod(core, ctx, def, ns, name);
      else remove(core, ctx, def, ns, name);
      return;
    default:
      throw apiError(
        405,
        'the server does not allow this method on the requested resource',
        'MethodNotAllowed',
        {},
      );
  }
}
