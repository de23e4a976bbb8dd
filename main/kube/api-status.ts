/**
 * The one reader of an API server's error answer: a Status body (message, reason, code, details.name,
 * details.causes) and the Retry-After header. Both the kube layer (error-classify.ts, for the watcher,
 * `describe` and every plain request) and write-back (writeback/write-error.ts) read answers here.
 *
 * What comes back is the server's raw text: it is untrusted, and whoever puts a piece of it into a
 * sentence passes it through `shownText` first (KubeError and WriteError also gate their whole sentence).
 * The body itself is bounded by the request's answer-size cap, so the causes need no cap of their own.
 */
import { translator } from '../../common/i18n/translator.ts';
import { asRecord, str } from '../../common/json-guards.ts';

export interface StatusCause {
  reason: string | null;
  field: string | null;
  message: string | null;
}

export interface ApiStatus {
  /** Whether the body was a JSON object (a Status), as opposed to text or JSON cut short. */
  json: boolean;
  /** The object's `kind`: "Status" for an API server's own error answer. */
  kind: string | null;
  message: string | null;
  reason: string | null;
  code: number | null;
  /** `details.name`: tells "no such object" (the object's name) from "no such resource". */
  name: string | null;
  causes: StatusCause[];
}

/** The sentence for a 401, wherever it is met: the watcher, write-back, install, `describe`. */
export const UNAUTHORIZED_SENTENCE = translator('en').t('kubeError.unauthorized');

/** A Status field: a string, with the empty one read as absent. */
const text = (v: unknown): string | null => {
  const s = str(v);
  return s === '' ? null : s;
};

/** A Status body, or what can be read of a text body or a Status cut short. Never throws. */
export function parseApiStatus(body: string): ApiStatus {
  const none = { kind: null, reason: null, code: null, name: null, causes: [] };
  let o: unknown;
  try {
    o = JSON.parse(body);
  } catch {
    // A Status cut short (we read at most a bounded head of an error body) still has its message.
    const cut = /"message"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(body.slice(0, 65_536));
    if (cut?.[1] !== undefined) return { json: false, message: text(unescapeJson(cut[1])), ...none };
    // A text/plain body ("404 page not found") is still worth showing.
    return { json: false, message: text(body.trim()), ...none };
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    return { json: false, message: text(body.trim()), ...none };
  const s = asRecord(o);
  const details = asRecord(s.details);
  const causes = (Array.isArray(details.causes) ? details.causes : []).map((c) => {
    const r = asRecord(c);
    return { reason: text(r.reason), field: text(r.field), message: text(r.message) };
  });
  const code = typeof s.code === 'number' && Number.isInteger(s.code) ? s.code : null;
  return {
    json: true,
    kind: text(s.kind),
    message: text(s.message),
    reason: text(s.reason),
    code,
    name: text(details.name),
    causes,
  };
}

/** A JSON string's contents with its escapes decoded as far as they are complete. */
function unescapeJson(raw: string): string {
  try {
    return JSON.parse(`"${raw.replace(/\\u?[0-9a-fA-F]{0,3}$|\\$/, '')}"`) as string;
  } catch {
    return raw;
  }
}

/** Retry-After in milliseconds (seconds, at most 300), or null when absent or not a number. */
export function retryAfterMs(header: string | string[] | undefined): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  const n = v ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? Math.min(n, 300) * 1000 : null;
}
