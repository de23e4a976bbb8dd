/**
 * The two requests both write-back controllers make: read the object the cluster holds, and
 * server-side apply ours. Apply is create-or-update and an identical re-apply changes nothing on the
 * server (same resourceVersion, no watch event), but we still avoid sending it: every PATCH is a
 * request the API server must admit, and the benchmark counts them.
 */
import type { ContextClient } from '../kube/context-client.ts';
import {
  parseStatusBody,
  type ResponseContext,
  toWriteError,
  WriteError,
  writeErrorFromResponse,
} from './write-error.ts';

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
    const s = parseStatusBody(res.body);
    if (s.json && s.reason === 'NotFound' && s.name === name) return null;
  }
  if (res.status < 200 || res.status > 299) throw writeErrorFromResponse(res.status, res.body, ctx);
  return parseObject(res.body, ctx.what);
}

/** Server-side apply of `body` at `path` (the object or its /status) with `force`; returns the answer. */
export async function applyObject(
  client: ContextClient,
  path: string,
  body: KubeObject,
  fieldManager: string,
  ctx: ResponseContext,
): Promise<KubeObject> {
  const query = `fieldManager=${encodeURIComponent(fieldManager)}&force=true`;
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
  if (res.status < 200 || res.status > 299) throw writeErrorFromResponse(res.status, res.body, ctx);
  return parseObject(res.body, ctx.what);
}

function parseObject(body: string, what: string): KubeObject {
  try {
    const o: unknown = JSON.parse(body);
    if (typeof o === 'object' && o !== null && !Array.isArray(o)) return o as KubeObject;
  } catch {
    // fall through
  }
  throw new WriteError('error', `The API server did not answer with an object while ${what}.`);
}

export const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
