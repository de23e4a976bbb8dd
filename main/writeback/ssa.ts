/**
 * The two requests both write-back controllers make: read the object the cluster holds, and
 * server-side apply ours. Apply is create-or-update and an identical re-apply changes nothing on the
 * server (same resourceVersion, no watch event), but we still avoid sending it: every PATCH is a
 * request the API server must admit, and the benchmark counts them.
 */
import { asRecord, isObj } from '../../common/json-guards.ts';
import { parseApiStatus } from '../kube/api-status.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { type ResponseContext, toWriteError, WriteError, writeErrorFromResponse } from './write-error.ts';

export const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';

export type KubeObject = Record<string, unknown>;

/**
 * GETs an object: the parsed object, or null when the server says this object does not exist (a JSON
 * 404 naming it). A text 404 ("404 page not found") means the resource type itself is not served.
 */
export async function readObject(
  client: ContextClient,
  path: string,
  name: string,
  ctx: ResponseContext,
): Promise<KubeObject | null> {
  let res: Awaited<ReturnType<ContextClient['request']>>;
  try {
    res = await client.request('GET', path, { headers: { Accept: 'application/json' } });
  } catch (e) {
    throw toWriteError(e, ctx.what);
  }
  if (res.status === 404) {
    const s = parseApiStatus(res.body);
    if (s.json && s.reason === 'NotFound' && s.name === name) return null;
  }
  if (res.status < 200 || res.status > 299) throw writeErrorFromResponse(res.status, res.body, ctx);
  return parseObject(res.body, ctx.what);
}

/**
 * A 404 that names the object itself (JSON NotFound with its name): the resource type is served, the
 * object is gone (deleted). Not "CRD not installed": the caller can create the object again.
 */
export class ObjectMissing extends WriteError {}

/**
 * Server-side apply of `body` at `path` (the object or its /status); returns the answer. Without
 * `force` a field another manager owns is a 409 (a terminal "owned by X", write-error.ts): taking over
 * is only ever the user's explicit choice.
 */
export async function applyObject(
  client: ContextClient,
  path: string,
  body: KubeObject,
  fieldManager: string,
  ctx: ResponseContext,
  force = false,
): Promise<KubeObject> {
  const query = `fieldManager=${encodeURIComponent(fieldManager)}${force ? '&force=true' : ''}`;
  let res: Awaited<ReturnType<ContextClient['request']>>;
  try {
    res = await client.request('PATCH', `${path}?${query}`, {
      // JSON is YAML, so a JSON body is a valid apply-patch+yaml body (05-ssa step 11).
      body: JSON.stringify(body),
      headers: { 'Content-Type': APPLY_CONTENT_TYPE, Accept: 'application/json' },
    });
  } catch (e) {
    throw toWriteError(e, ctx.what);
  }
  if (res.status === 404) {
    const s = parseApiStatus(res.body);
    const name = asRecord(body.metadata).name;
    if (s.json && s.reason === 'NotFound' && s.name !== null && s.name === name)
      throw new ObjectMissing('error', `The object ${s.name} was deleted while ${ctx.what} (404).`, 404);
  }
  if (res.status < 200 || res.status > 299) throw writeErrorFromResponse(res.status, res.body, ctx);
  return parseObject(res.body, ctx.what);
}

/** The field managers in an object's managedFields, other than `self`, that own fields under `prefix` (e.g. `f:status`). */
export function otherManagers(object: KubeObject, self: string, prefix: string | null): string[] {
  const entries = asRecord(object.metadata).managedFields;
  const out = new Set<string>();
  if (!Array.isArray(entries)) return [];
  for (const e of entries) {
    const entry = asRecord(e);
    if (typeof entry.manager !== 'string' || entry.manager === self) continue;
    const fields = asRecord(entry.fieldsV1);
    if (prefix === null ? Object.keys(fields).length > 0 : Object.keys(asRecord(fields[prefix])).length > 0)
      out.add(entry.manager);
  }
  return [...out];
}

/** Whether `manager` has any managedFields entry in the object (it wrote it before). */
export function hasManager(object: KubeObject, manager: string): boolean {
  const entries = asRecord(object.metadata).managedFields;
  return Array.isArray(entries) && entries.some((e) => asRecord(e).manager === manager);
}

function parseObject(body: string, what: string): KubeObject {
  try {
    const o: unknown = JSON.parse(body);
    if (isObj(o)) return o as KubeObject;
  } catch {
    // fall through
  }
  throw new WriteError('error', `The API server did not answer with an object while ${what}.`);
}
