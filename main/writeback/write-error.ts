/**
 * Failures of write-back requests as WritebackPhases with one sentence the user can act on. The API
 * server's Status body is parsed here (it is untrusted input): the 403 message names the verb and the
 * resource, a 409 lists the conflicting fields per cause, 400/422/500 carry the server's own words.
 */
import type { WritebackPhase } from '../../common/fleet.ts';
import { isKubeError } from '../kube/errors.ts';

export type FailurePhase = Exclude<WritebackPhase, 'off' | 'idle' | 'writing'>;

export class WriteError extends Error {
  override readonly name = 'WriteError';
  constructor(
    readonly phase: FailurePhase,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

interface StatusBody {
  message: string | null;
  reason: string | null;
  /** The `details.name` of the Status, used to tell "no such object" from "no such resource". */
  name: string | null;
  fields: string[];
  json: boolean;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const rec = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export function parseStatusBody(body: string): StatusBody {
  try {
    const o = rec(JSON.parse(body));
    const details = rec(o.details);
    const causes = Array.isArray(details.causes) ? details.causes : [];
    const fields = causes.map((c) => str(rec(c).field)).filter((f): f is string => f !== null);
    return { message: str(o.message), reason: str(o.reason), name: str(details.name), fields, json: true };
  } catch {
    const text = body.trim().split(/\r?\n/)[0]?.slice(0, 200) ?? '';
    return { message: text || null, reason: null, name: null, fields: [], json: false };
  }
}

/** "the user "x" may not patch gpuinventories/status in API group "g" at the cluster scope", from a 403. */
export function forbiddenSentence(message: string | null, fallback: string): string {
  const m = message?.match(
    /User "([^"]*)" cannot (\S+) resource "([^"]+)" in API group "([^"]*)" (at the cluster scope|in the namespace "[^"]*")/,
  );
  if (!m) return `Not allowed to ${fallback}${message ? `: ${message}` : ''} (403).`;
  const [, user, verb, resource, group, scope] = m;
  const where = group ? ` in API group "${group}"` : '';
  return `The user "${user}" may not ${verb} ${resource}${where} ${scope} (403 Forbidden).`;
}

export interface ResponseContext {
  /** What the request did, in words: "writing the GpuInventory status". */
  what: string;
  /** The sentence for a 404 that means the resource type is not served (no CRD, no namespace). */
  missing: { phase: FailurePhase; message: (serverMessage: string | null) => string };
}

/** A non-2xx answer as a WriteError. */
export function writeErrorFromResponse(status: number, body: string, ctx: ResponseContext): WriteError {
  const s = parseStatusBody(body);
  const said = s.message ? `: ${s.message}` : '';
  if (status === 403) return new WriteError('forbidden', forbiddenSentence(s.message, ctx.what), status);
  if (status === 404) return new WriteError(ctx.missing.phase, ctx.missing.message(s.message), status);
  if (status === 409) {
    const manager = s.message?.match(/conflicts? with "([^"]+)"/)?.[1];
    const fields = s.fields.length > 0 ? s.fields.join(', ') : 'some fields';
    const who = manager ? `field manager "${manager}"` : 'another field manager';
    return new WriteError('conflict', `While ${ctx.what}, ${who} owns ${fields} (409 Conflict).`, status);
  }
  // Apply reports a type error in the body as 500 "failed to create typed patch object" (05-ssa step 8):
  // that is our request being invalid, not the server failing, so retrying the same body cannot help.
  const typedPatch = status === 500 && s.message?.startsWith('failed to create typed patch object');
  if (status === 400 || status === 422 || typedPatch)
    return new WriteError('invalid', `The API server refused ${ctx.what} (${status})${said}`, status);
  if (status === 401)
    return new WriteError(
      'error',
      'The cluster rejected the credentials, or they have expired (401).',
      status,
    );
  return new WriteError('error', `The API server failed while ${ctx.what} (${status})${said || '.'}`, status);
}

/** Anything thrown by a request (a KubeError from the transport, a WriteError, a bug) as a WriteError. */
export function toWriteError(err: unknown, what: string): WriteError {
  if (err instanceof WriteError) return err;
  if (isKubeError(err)) return new WriteError('error', err.message, err.status);
  const text = err instanceof Error ? err.message : String(err);
  return new WriteError('error', `Failed while ${what}: ${text}`);
}
