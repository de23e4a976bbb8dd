// A minimal OpenAPI v3 (GET /openapi/v3 and /openapi/v3/<group-version>): the index of group-versions and,
// per group-version, each resource's PATCH operation with its group-version-kind and the dryRun and
// fieldValidation query parameters. That is what kubectl reads to decide it may send dryRun=All and
// fieldValidation=Strict (cli-runtime's query-param verifier); the schemas themselves are not served.
import { createHash } from 'node:crypto';
import type { Core } from './core.ts';
import type { Ctx } from './http.ts';
import { sendJson, sendText404 } from './http.ts';
import type { JsonObject, ResourceDef } from './types.ts';

const QUERY = (name: string): JsonObject => ({
  name,
  in: 'query',
  schema: { type: 'string', uniqueItems: true },
});

function gvPath(d: ResourceDef): string {
  return d.group ? `apis/${d.group}/${d.version}` : `api/${d.version}`;
}

function gvDoc(defs: ResourceDef[]): JsonObject {
  const paths: JsonObject = {};
  for (const d of defs) {
    if (d.virtual) continue;
    const scope = d.namespaced ? 'namespaces/{namespace}/' : '';
    const patch: JsonObject = {
      parameters: [QUERY('dryRun'), QUERY('fieldManager'), QUERY('fieldValidation'), QUERY('force')],
      'x-kubernetes-action': 'patch',
      'x-kubernetes-group-version-kind': { group: d.group, version: d.version, kind: d.kind },
    };
    paths[`/${gvPath(d)}/${scope}${d.resource}/{name}`] = { patch };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.33.13' },
    paths,
    components: { schemas: {} },
  };
}

/** Serves /openapi/v3[/…]; false when the path is not one of them. */
export function serveOpenApi(core: Core, ctx: Ctx): boolean {
  if (ctx.path !== '/openapi/v3' && !ctx.path.startsWith('/openapi/v3/')) return false;
  const byGv = new Map<string, ResourceDef[]>();
  for (const d of core.registry.all()) byGv.set(gvPath(d), [...(byGv.get(gvPath(d)) ?? []), d]);
  if (ctx.path === '/openapi/v3') {
    const paths: JsonObject = {};
    for (const [gv, defs] of byGv) {
      const hash = createHash('sha512')
        .update(JSON.stringify(gvDoc(defs)))
        .digest('hex')
        .slice(0, 128)
        .toUpperCase();
      paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${hash}` };
    }
    sendJson(ctx, 200, { paths });
    return true;
  }
  const defs = byGv.get(ctx.path.slice('/openapi/v3/'.length));
  if (!defs) sendText404(ctx);
  else sendJson(ctx, 200, gvDoc(defs));
  return true;
}
