// Discovery documents: /api, /apis, group and group-version lists, aggregated discovery v2 with ETag.
import { createHash } from 'node:crypto';
import type { Core } from './core.ts';
import { apiError } from './errors.ts';
import type { Ctx } from './http.ts';
import { negotiate, sendBytes, sendJson, sendText404 } from './http.ts';
import type { JsonObject, ResourceDef } from './types.ts';

const AGG_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const STATUS_VERBS = ['get', 'patch', 'update'];

/** ServiceAccounts serve the TokenRequest subresource (sim/token-request.ts). */
const hasToken = (d: ResourceDef) => d.builtin && d.group === '' && d.resource === 'serviceaccounts';

function hash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 16);
}

function resourceList(defs: ResourceDef[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const d of [...defs].sort((a, b) => a.resource.localeCompare(b.resource))) {
    const r: JsonObject = {
      name: d.resource,
      singularName: d.singular,
      namespaced: d.namespaced,
      kind: d.kind,
      verbs: d.verbs,
    };
    if (d.shortNames.length) r.shortNames = d.shortNames;
    if (d.categories) r.categories = d.categories;
    if (!d.virtual)
      r.storageVersionHash = Buffer.from(hash(`${d.group}/${d.resource}`).slice(0, 8), 'hex').toString(
        'base64',
      );
    out.push(r);
    if (hasToken(d))
      out.push({
        name: `${d.resource}/token`,
        singularName: '',
        namespaced: true,
        group: 'authentication.k8s.io',
        version: 'v1',
        kind: 'TokenRequest',
        verbs: ['create'],
      });
    if (d.hasStatus)
      out.push({
        name: `${d.resource}/status`,
        singularName: '',
        namespaced: d.namespaced,
        kind: d.kind,
        verbs: STATUS_VERBS,
      });
  }
  return out;
}

function aggregatedGroup(core: Core, group: string): JsonObject {
  const defs = core.registry.all().filter((d) => d.group === group);
  const versions = [...new Set(defs.map((d) => d.version))];
  const meta: JsonObject = group ? { name: group, creationTimestamp: null } : { creationTimestamp: null };
  return {
    metadata: meta,
    versions: versions.map((v) => ({
      version: v,
      resources: defs
        .filter((d) => d.version === v)
        .sort((a, b) => a.resource.localeCompare(b.resource))
        .map((d) => {
          const kind = d.builtin
            ? { group: '', version: '', kind: d.kind }
            : { group: d.group, version: d.version, kind: d.kind };
          const r: JsonObject = {
            resource: d.resource,
            responseKind: kind,
            scope: d.namespaced ? 'Namespaced' : 'Cluster',
            singularResource: d.singular,
            verbs: d.verbs,
          };
          if (d.shortNames.length) r.shortNames = d.shortNames;
          if (d.categories) r.categories = d.categories;
          if (d.hasStatus)
            r.subresources = [{ subresource: 'status', responseKind: kind, verbs: STATUS_VERBS }];
          if (hasToken(d))
            r.subresources = [
              {
                subresource: 'token',
                responseKind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
                verbs: ['create'],
              },
            ];
          return r;
        }),
      freshness: 'Current',
    })),
  };
}

function sendAggregated(ctx: Ctx, items: JsonObject[]): void {
  const body = JSON.stringify({
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items,
  });
  const etag = `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`;
  const headers = { 'Cache-Control': 'public', Etag: etag, Vary: 'Accept' };
  if (ctx.req.headers['if-none-match'] === etag) {
    sendBytes(ctx, 304, Buffer.alloc(0), headers);
    return;
  }
  sendJson(ctx, 200, body, headers, AGG_TYPE);
}

function groupDoc(group: string, versions: string[]): JsonObject {
  const vs = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: vs, preferredVersion: vs[0] ?? null };
}

/** Serves a discovery path; returns false when the path is not a discovery path. */
export function serveDiscovery(core: Core, ctx: Ctx, parts: string[]): boolean {
  const neg = negotiate(ctx.req.headers.accept, true);
  if (!neg.acceptable) {
    throw apiError(
      406,
      'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      'NotAcceptable',
    );
  }
  const [root, a, b, c] = parts;
  if (root === 'api' && a === undefined) {
    if (neg.aggregated) sendAggregated(ctx, [aggregatedGroup(core, '')]);
    else {
      const addr = `${ctx.req.socket.localAddress ?? '127.0.0.1'}:${ctx.req.socket.localPort ?? 0}`;
      sendJson(ctx, 200, {
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: addr }],
      });
    }
    return true;
  }
  if (root === 'api' && a === 'v1' && b === undefined) {
    sendJson(ctx, 200, {
      kind: 'APIResourceList',
      groupVersion: 'v1',
      resources: resourceList(core.registry.all().filter((d) => d.group === '')),
    });
    return true;
  }
  if (root !== 'apis' || c !== undefined) return false;
  if (a === undefined) {
    const groups = core.registry.groups();
    if (neg.aggregated)
      sendAggregated(
        ctx,
        groups.map((g) => aggregatedGroup(core, g)),
      );
    else {
      const docs = groups.map((g) =>
        groupDoc(g, [
          ...new Set(
            core.registry
              .all()
              .filter((d) => d.group === g)
              .map((d) => d.version),
          ),
        ]),
      );
      sendJson(ctx, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: docs });
    }
    return true;
  }
  const defs = core.registry.all().filter((d) => d.group === a && (b === undefined || d.version === b));
  if (defs.length === 0) {
    sendText404(ctx);
    return true;
  }
  if (b === undefined)
    sendJson(ctx, 200, {
      kind: 'APIGroup',
      apiVersion: 'v1',
      ...groupDoc(a, [...new Set(defs.map((d) => d.version))]),
    });
  else
    sendJson(ctx, 200, {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: `${a}/${b}`,
      resources: resourceList(defs),
    });
  return true;
}
