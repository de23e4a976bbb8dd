/**
 * Failures of write-back requests as WritebackPhases with one sentence the user can act on. The API
 * server's Status body is read by kube/api-status.ts, the parser the watcher shares (it is untrusted input: every piece of it shown passes `shownText`,
 * which strips escapes and control characters, redacts secrets and caps, and so does every whole
 * sentence a WriteError carries): the 403 message names the verb and the resource, a 409 names the field manager that
 * owns the fields, 400/413/422 and etcd's "too large" carry the server's own words.
 *
 * `terminal`: the same request cannot succeed by being sent again (invalid, too large, owned by another
 * manager). The apply loop does not retry those on a timer; only a meaningful change of what it wants
 * to write (or a restart with other settings) tries again.
 */
import { SENTENCE_MAX } from '../../common/cluster-text.ts';
import type { ErrorKind } from '../../common/errors.ts';
import type { WritebackPhase } from '../../common/fleet.ts';
import { type ApiStatus, parseApiStatus, UNAUTHORIZED_SENTENCE } from '../kube/api-status.ts';
import { isKubeError } from '../kube/errors.ts';
import { shownText } from '../log/redact.ts';

export type FailurePhase = Exclude<WritebackPhase, 'off' | 'idle' | 'writing'>;

/**
 * A failed write as write-back shows it: the kube layer's kind (common/errors.ts, so it keeps its
 * meaning across IPC and HTTP) with write-back's own phase, `terminal` and `owners`.
 */
export class WriteError extends Error {
  override readonly name = 'WriteError';
  /** For a `conflict`: who owns what we would write (field managers, or a managed-by label), gated. */
  readonly owners: readonly string[];
  /** What failed, in the kinds every layer shares; derived from phase and status unless given. */
  readonly kind: ErrorKind;
  constructor(
    readonly phase: FailurePhase,
    message: string,
    readonly status: number | null = null,
    readonly terminal = false,
    owners: readonly string[] = [],
    kind?: ErrorKind,
  ) {
    // The one gate for every sentence built here: one line, no secrets, capped.
    super(shownText(message, SENTENCE_MAX));
    this.owners = owners
      .slice(0, MAX_OWNERS)
      .map((o) => shownText(o, OWNER_MAX))
      .filter((o) => o !== '');
    this.kind = kind ?? kindOf(phase, status);
  }
}

function kindOf(phase: FailurePhase, status: number | null): ErrorKind {
  switch (phase) {
    case 'forbidden':
      return 'forbidden';
    case 'conflict':
      return 'conflict';
    case 'invalid':
      return 'invalid';
    case 'crd-missing':
      return 'not-found';
    case 'crd-mismatch':
      return 'config';
    case 'error':
      if (status === 401) return 'unauthorized';
      if (status !== null && status >= 500) return 'server';
      if (status === 404) return 'not-found';
      return 'failed';
  }
}

/** Owners named in a conflict: at most this many, each at most OWNER_MAX characters. */
const MAX_OWNERS = 4;
export const OWNER_MAX = 80;

/** How an operator allows write-back to take over fields another field manager owns. */
export const TAKE_OVER_HINT =
  "GPU Fleet does not take over what it did not create; to take it over, run with '--take-over' (or turn on take-over for this context)";

/** The fields named by a Status's causes, and the field managers its FieldManagerConflict causes name. */
function conflictOf(s: ApiStatus): { fields: string[]; managers: string[] } {
  const fields = s.causes.map((c) => c.field).filter((f): f is string => f !== null);
  const managers = new Set<string>();
  for (const c of s.causes) {
    const m = c.reason === 'FieldManagerConflict' ? c.message?.match(/conflict with "([^"]+)"/) : null;
    if (m?.[1]) managers.add(m[1]);
  }
  if (managers.size === 0 && s.message?.startsWith('Apply failed with '))
    for (const m of s.message.matchAll(/conflicts? with "([^"]+)"/g)) if (m[1]) managers.add(m[1]);
  return { fields, managers: [...managers] };
}

/** "the user "x" may not patch gpuinventories/status in API group "g" at the cluster scope", from a 403. */
export function forbiddenSentence(message: string | null, fallback: string): string {
  const m = message?.match(
    /User "([^"]*)" cannot (\S+) resource "([^"]+)" in API group "([^"]*)" (at the cluster scope|in the namespace "[^"]*")/,
  );
  if (!m) return `Not allowed to ${fallback}${message ? `: ${shownText(message)}` : ''} (403).`;
  const [, user, verb, resource, group, scope] = m.map((part) => shownText(part, 120));
  const where = group ? ` in API group "${group}"` : '';
  return `The user "${user}" may not ${verb} ${resource}${where} ${scope} (403 Forbidden).`;
}

export interface ResponseContext {
  /** What the request did, in words: "writing the GpuInventory status". */
  what: string;
  /** The sentence for a 404 that means the resource type is not served (no CRD, no namespace). */
  missing: { phase: FailurePhase; message: (serverMessage: string | null) => string };
}

/** "a, b, c and 4 more": at most `max` items of a list from the server. */
function someOf(items: string[], max = 4): string {
  const shown = items.slice(0, max).map((i) => shownText(i, 80));
  return items.length > max ? `${shown.join(', ')} and ${items.length - max} more` : shown.join(', ');
}

/** A non-2xx answer as a WriteError. */
export function writeErrorFromResponse(status: number, body: string, ctx: ResponseContext): WriteError {
  const s = parseApiStatus(body);
  const said = s.message ? `: ${shownText(s.message)}` : '';
  if (status === 403) return new WriteError('forbidden', forbiddenSentence(s.message, ctx.what), status);
  if (status === 404)
    return new WriteError(ctx.missing.phase, ctx.missing.message(shownText(s.message) || null), status);
  if (status === 409) {
    const c = conflictOf(s);
    const fields = c.fields.length > 0 ? someOf(c.fields) : 'some fields';
    if (c.managers.length > 0) {
      // Another manager owns what we would write: sending it again cannot succeed, and forcing it is
      // taking over; only the user may allow that.
      const who = c.managers.map((m) => `"${shownText(m, 80)}"`).join(', ');
      return new WriteError(
        'conflict',
        `While ${ctx.what}: owned by field manager ${who}, which manages ${fields} (409 Conflict). ${TAKE_OVER_HINT}.`,
        status,
        true,
        c.managers,
      );
    }
    return new WriteError(
      'conflict',
      `While ${ctx.what}, another field manager owns ${fields} (409 Conflict).`,
      status,
    );
  }
  // Apply reports a type error in the body as 500 "failed to create typed patch object" (05-ssa step 8):
  // that is our request being invalid, not the server failing, so retrying the same body cannot help.
  const typedPatch = status === 500 && s.message?.startsWith('failed to create typed patch object');
  if (status === 400 || status === 422 || typedPatch)
    return new WriteError(
      'invalid',
      `The API server refused ${ctx.what} (${status})${said}`,
      status,
      true,
      [],
      'invalid',
    );
  // etcd's size limits (13 steps 12-14): the same object is refused again, however often it is sent.
  const tooLarge =
    status === 413 ||
    (status === 500 &&
      (s.message === 'etcdserver: request is too large' || s.message?.includes('code = ResourceExhausted')));
  if (tooLarge)
    return new WriteError(
      'invalid',
      `The object is too large for the API server while ${ctx.what} (${status})${said}`,
      status,
      true,
      [],
      'too-large',
    );
  if (status === 401)
    return new WriteError('error', UNAUTHORIZED_SENTENCE, status, false, [], 'unauthorized');
  return new WriteError('error', `The API server failed while ${ctx.what} (${status})${said || '.'}`, status);
}

/** Anything thrown by a request (a KubeError from the transport, a WriteError, a bug) as a WriteError. */
export function toWriteError(err: unknown, what: string): WriteError {
  if (err instanceof WriteError) return err;
  if (isKubeError(err))
    return new WriteError('error', shownText(err.message), err.status, false, [], err.kind);
  const text = shownText(err instanceof Error ? err.message : String(err));
  return new WriteError('error', `Failed while ${what}: ${text}`);
}
