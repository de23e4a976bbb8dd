// PATCH: merge / JSON / strategic merge patches and server-side apply, with their error rules.
import { parse as parseYaml } from 'yaml';
import { createDefaults, validateMeta } from './admission.ts';
import { serverSideApply } from './apply.ts';
import { forbiddenCreate } from './auth.ts';
import type { Core } from './core.ts';
import { rootSchema, typedPatchError } from './crschema.ts';
import { apiError, badRequest, notFound, optionsInvalid, unsupportedPatch } from './errors.ts';
import type { Ctx } from './http.ts';
import { readBody, sendJson } from './http.ts';
import { listKeysFor } from './listtypes.ts';
import { finishUpdate, isDryRun, manager } from './mutate.ts';
import { jsonPatch, mergePatch, strategicMerge } from './patch.ts';
import { objectJson } from './serialize.ts';
import { patchUndecodable } from './typed.ts';
import type { Json, KObj, ResourceDef } from './types.ts';
import { apiVersionOf, isObj } from './types.ts';

const CR_TYPES = 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';

function parseJson(raw: string): Json {
  try {
    return JSON.parse(raw) as Json;
  } catch {
    throw badRequest('error decoding patch: unexpected end of JSON input');
  }
}

export async function patch(
  core: Core,
  ctx: Ctx,
  def: ResourceDef,
  ns: string,
  name: string,
  sub: string,
): Promise<void> {
  const type =
    String(ctx.req.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  const known = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/apply-patch+yaml',
  ];
  if (def.builtin) known.push('application/strategic-merge-patch+json');
  if (!known.includes(type)) {
    if (def.builtin) throw unsupportedPatch();
    throw apiError(
      415,
      `the body of the request was in an unknown format - accepted media types include: ${CR_TYPES}`,
      'UnsupportedMediaType',
    );
  }
  isDryRun(ctx, 'PatchOptions'); // the options are validated before anything else
  const force = ctx.query.get('force');
  const raw = (await readBody(ctx, core.limits.requestBodyBytes)).toString('utf8');
  if (type === 'application/apply-patch+yaml')
    return apply(core, ctx, def, ns, name, sub, raw, force === 'true');
  if (force !== null) {
    throw optionsInvalid(
      'PatchOptions',
      'force',
      'FieldValueForbidden',
      'Forbidden: may not be specified for non-apply patch',
    );
  }
  const prev = core.get(def, ns, name);
  if (!prev) throw notFound(def, name);
  const body = parseJson(raw);
  const current = structuredClone(prev) as Json;
  let patched: Json;
  if (type === 'application/json-patch+json') patched = jsonPatch(current, body);
  else if (type === 'application/merge-patch+json') patched = mergePatch(current, body);
  else patched = strategicMerge(current, body, listKeysFor(def));
  if (!isObj(patched)) throw badRequest('patched object is not an object');
  const desired = patched as KObj;
  desired.metadata = isObj(desired.metadata) ? desired.metadata : {};
  const decodeWarn = decodePatched(def, desired, body);
  const bodyRv = isObj(body) && isObj(body.metadata) ? body.metadata.resourceVersion : undefined;
  if (bodyRv === undefined) delete desired.metadata.resourceVersion;
  finishUpdate(core, ctx, def, prev, desired, sub, decodeWarn);
}

/** Decodes a patched typed built-in object; one that does not decode is the 422 a real PATCH gets. */
function decodePatched(def: ResourceDef, desired: KObj, body: Json | undefined): string[] {
  if (!def.decode) return [];
  const before = structuredClone(desired);
  const r = def.decode(desired, false);
  if (r.error !== undefined) throw patchUndecodable(before, body, r.error);
  return r.warnings;
}

function gvk(applied: KObj): string {
  const av = typeof applied.apiVersion === 'string' ? applied.apiVersion : '';
  const gv = av.includes('/') ? av : `/${av}`;
  return `${gv}, Kind=${typeof applied.kind === 'string' ? applied.kind : ''}`;
}

async function apply(
  core: Core,
  ctx: Ctx,
  def: ResourceDef,
  ns: string,
  name: string,
  sub: string,
  raw: string,
  force: boolean,
): Promise<void> {
  let parsed: unknown;
  try {
    parsed = parseYaml(raw);
  } catch (e) {
    throw badRequest(`error decoding YAML: ${(e as Error).message}`);
  }
  if (!isObj(parsed)) throw badRequest('invalid object type: /, Kind=');
  const applied = parsed as KObj;
  applied.metadata = isObj(applied.metadata) ? applied.metadata : {};
  if (applied.apiVersion !== apiVersionOf(def) || applied.kind !== def.kind)
    throw badRequest(`invalid object type: ${gvk(applied)}`);
  const fm = ctx.query.get('fieldManager');
  if (!fm) {
    throw optionsInvalid(
      'PatchOptions',
      'fieldManager',
      'FieldValueRequired',
      'Required value: is required for apply patch',
    );
  }
  if (applied.metadata.name !== undefined && applied.metadata.name !== name) {
    throw badRequest(
      `the name of the object (${String(applied.metadata.name)}) does not match the name on the URL (${name})`,
    );
  }
  if (def.namespaced && applied.metadata.namespace !== undefined && applied.metadata.namespace !== ns) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const schema = def.builtin
    ? def.resource === 'configmaps'
      ? CM_SCHEMA
      : undefined
    : rootSchema(def.schema);
  const typeErr = schema ? typedPatchError(schema, applied) : undefined;
  if (typeErr) {
    const id = def.namespaced ? `${ns}/${name}` : `/${name}`;
    throw apiError(500, `failed to create typed patch object (${id}; ${gvk(applied)}): ${typeErr}`, '');
  }
  let prev = core.get(def, ns, name);
  const creating = !prev;
  if (!prev) {
    if (sub) throw notFound(def, name);
    prev = {
      apiVersion: apiVersionOf(def),
      kind: def.kind,
      metadata: def.namespaced ? { name, namespace: ns } : { name },
    };
  }
  const result = serverSideApply(
    def,
    prev,
    applied,
    fm || manager(ctx),
    sub,
    force,
    listKeysFor(def),
    creating,
  );
  if (!result.changed && !creating) {
    sendJson(ctx, 200, objectJson(prev));
    return;
  }
  const next = result.obj;
  decodePatched(def, next, applied);
  validateMeta(def, next, creating ? undefined : prev);
  if (creating) {
    createDefaults(core, def, next);
    authorizeCreate(core, ctx, def, ns, name);
  }
  const { obj } = core.write(def, next, creating ? undefined : prev, 'apply', isDryRun(ctx, 'PatchOptions'));
  sendJson(ctx, creating ? 201 : 200, objectJson(obj));
}

/**
 * A PATCH that creates its object also needs `create` on it (same resource, name and namespace): the
 * apiserver checks it after the object validated, before it is stored (endpoints/handlers/patch.go,
 * registry/rest WithAuthorization), dry-run included.
 */
function authorizeCreate(core: Core, ctx: Ctx, def: ResourceDef, ns: string, name: string): void {
  const attrs = {
    verb: 'create',
    group: def.group,
    resource: def.resource,
    subresource: '',
    name,
    namespace: def.namespaced ? ns : '',
  };
  if (!core.authorize(ctx.user, attrs).allowed) throw forbiddenCreate(ctx.user, attrs);
}

const CM_SCHEMA = {
  type: 'object',
  properties: { data: { type: 'object', additionalProperties: { type: 'string' } } },
} as const satisfies Json;
