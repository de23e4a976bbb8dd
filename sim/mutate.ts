// Create, update (PUT) and delete, with status-subresource rules and managedFields tracking.

import { parse as parseYaml } from 'yaml';
import { checkCustom, checkKind, createDefaults, validateMeta } from './admission.ts';
import type { Core } from './core.ts';
import { alreadyExists, apiError, badRequest, conflict, notFound, optionsInvalid } from './errors.ts';
import type { Ctx } from './http.ts';
import { readBody, sendJson } from './http.ts';
import { listKeysFor } from './listtypes.ts';
import { managerFromUserAgent, trackUpdate } from './managed.ts';
import { objectJson } from './serialize.ts';
import { undecodable } from './typed.ts';
import type { JsonObject, KObj, ResourceDef } from './types.ts';
import { isObj } from './types.ts';

export async function readObject(ctx: Ctx, def: ResourceDef, bodyLimit: number): Promise<KObj> {
  const raw = (await readBody(ctx, bodyLimit)).toString('utf8');
  const type = String(ctx.req.headers['content-type'] ?? 'application/json')
    .split(';')[0]
    ?.trim();
  if (type !== 'application/json' && type !== 'application/yaml' && type !== '') {
    throw apiError(
      415,
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      'UnsupportedMediaType',
      {},
    );
  }
  let v: unknown;
  try {
    v = type === 'application/yaml' ? parseYaml(raw) : JSON.parse(raw);
  } catch (e) {
    const msg = raw.trim() === '' ? 'unexpected end of JSON input' : 'unexpected end of JSON input';
    void e;
    throw badRequest(
      `the object provided is unrecognized (must be of type ${def.kind}): couldn't get version/kind; json parse error: ${msg} (${raw.slice(0, 32)} ...)`,
    );
  }
  if (!isObj(v)) {
    throw badRequest(
      `the object provided is unrecognized (must be of type ${def.kind}): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const o = v as KObj;
  o.metadata = isObj(o.metadata) ? o.metadata : {};
  return o;
}

export function manager(ctx: Ctx): string {
  return ctx.query.get('fieldManager') ?? managerFromUserAgent(ctx.req.headers['user-agent']);
}

/** Whether the request is dryRun=All; any other dryRun value is the 422 a real server answers. */
export function isDryRun(ctx: Ctx, options: string): boolean {
  const values = ctx.query.getAll('dryRun');
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  throw optionsInvalid(
    options,
    'dryRun',
    'FieldValueNotSupported',
    `Unsupported value: []string{${values.map((v) => JSON.stringify(v)).join(', ')}}: supported values: "All"`,
  );
}

/** Decodes a POST/PUT body of a typed built-in kind (400 when it does not decode); returns its warnings. */
export function decodeBody(ctx: Ctx, def: ResourceDef, body: KObj): string[] {
  if (!def.decode) return [];
  const r = def.decode(body, ctx.query.get('fieldValidation') === 'Strict');
  if (r.error !== undefined) throw undecodable(def, r.error);
  return r.warnings;
}

function warnings(ctx: Ctx, w: string[]): Record<string, string> {
  void ctx;
  return w.length ? { Warning: w.join(', ') } : {};
}

export async function create(core: Core, ctx: Ctx, def: ResourceDef, namespace: string): Promise<void> {
  const dry = isDryRun(ctx, 'CreateOptions');
  const body = await readObject(ctx, def, core.limits.requestBodyBytes);
  checkKind(def, body);
  const decodeWarn = decodeBody(ctx, def, body);
  const md = body.metadata;
  if (!md.name && typeof md.generateName === 'string')
    md.name = md.generateName + Math.random().toString(36).slice(2, 7);
  if (def.namespaced) {
    if (md.namespace && md.namespace !== namespace)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    md.namespace = namespace;
  }
  validateMeta(def, body);
  const name = String(md.name ?? '');
  if (core.get(def, namespace, name)) throw alreadyExists(def, name);
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'generation'])
    delete md[k];
  createDefaults(core, def, body);
  const warn = [...decodeWarn, ...checkCustom(def, body, ctx.query.get('fieldValidation') === 'Strict')];
  trackUpdate(def, undefined, body, manager(ctx), '', listKeysFor(def));
  const { obj } = core.write(def, body, undefined, 'update', dry);
  sendJson(ctx, 201, objectJson(obj), warnings(ctx, warn));
}

/** Turns a client's desired object into what the (sub)resource may store. */
export function applyStrategy(def: ResourceDef, prev: KObj, desired: KObj, sub: string): KObj {
  if (sub === 'status') {
    const next: KObj = { ...prev, status: desired.status ?? null };
    if (def.resource === 'nodes' && def.builtin) {
      next.metadata = {
        ...prev.metadata,
        labels: desired.metadata.labels ?? null,
        annotations: desired.metadata.annotations ?? null,
      };
      if (!desired.metadata.labels) delete next.metadata.labels;
      if (!desired.metadata.annotations) delete next.metadata.annotations;
    }
    if (next.status === null) delete next.status;
    return next;
  }
  const next: KObj = { ...desired, metadata: { ...desired.metadata } };
  if (def.hasStatus) {
    if (prev.status !== undefined) next.status = prev.status;
    else delete next.status;
  }
  return next;
}

/** Shared tail of PUT and non-apply PATCH: checks, strategy, tracking, write, response. */
export function finishUpdate(
  core: Core,
  ctx: Ctx,
  def: ResourceDef,
  prev: KObj,
  desired: KObj,
  sub: string,
  decodeWarn: string[] = [],
): void {
  const name = String(prev.metadata.name);
  if (desired.metadata.name !== undefined && desired.metadata.name !== name) {
    throw badRequest(
      `the name of the object (${String(desired.metadata.name)}) does not match the name on the URL (${name})`,
    );
  }
  const rv = desired.metadata.resourceVersion;
  if (rv !== undefined && rv !== null && rv !== '' && rv !== prev.metadata.resourceVersion)
    throw conflict(def, name);
  const keep: JsonObject = {};
  for (const k of [
    'name',
    'namespace',
    'uid',
    'creationTimestamp',
    'generation',
    'managedFields',
    'deletionTimestamp',
  ]) {
    if (prev.metadata[k] !== undefined) keep[k] = prev.metadata[k] as JsonObject;
  }
  const next = applyStrategy(def, prev, desired, sub);
  next.metadata = { ...next.metadata, ...keep };
  delete next.metadata.resourceVersion;
  validateMeta(def, next, prev);
  const warn = [...decodeWarn, ...checkCustom(def, next, ctx.query.get('fieldValidation') === 'Strict')];
  trackUpdate(def, prev, next, manager(ctx), sub, listKeysFor(def));
  const { obj } = core.write(
    def,
    next,
    prev,
    'update',
    isDryRun(ctx, ctx.method === 'PUT' ? 'UpdateOptions' : 'PatchOptions'),
  );
  sendJson(ctx, 200, objectJson(obj), warnings(ctx, warn));
}

export async function update(
  core: Core,
  ctx: Ctx,
  def: ResourceDef,
  ns: string,
  name: string,
  sub: string,
): Promise<void> {
  isDryRun(ctx, 'UpdateOptions'); // the options are validated before anything else
  const body = await readObject(ctx, def, core.limits.requestBodyBytes);
  checkKind(def, body);
  const decodeWarn = decodeBody(ctx, def, body);
  const prev = core.get(def, ns, name);
  if (body.metadata.name !== undefined && body.metadata.name !== name) {
    throw badRequest(
      `the name of the object (${String(body.metadata.name)}) does not match the name on the URL (${name})`,
    );
  }
  if (!prev) throw notFound(def, name);
  finishUpdate(core, ctx, def, prev, body, sub, decodeWarn);
}

export function remove(core: Core, ctx: Ctx, def: ResourceDef, ns: string, name: string): void {
  const prev = core.get(def, ns, name);
  if (!prev) throw notFound(def, name);
  if (isDryRun(ctx, 'DeleteOptions')) {
    sendJson(ctx, 200, objectJson(prev));
    return;
  }
  const hook = core.deleteHooks.get(def.resource);
  if (hook && def.builtin) {
    sendJson(ctx, 200, objectJson(hook(prev)));
    return;
  }
  core.remove(def, prev);
  const details: JsonObject = { name };
  if (def.group) details.group = def.group;
  details.kind = def.resource;
  details.uid = prev.metadata.uid ?? '';
  sendJson(ctx, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details });
}
