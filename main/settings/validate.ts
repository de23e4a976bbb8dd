/**
 * Checks a whole settings document and words what is wrong by field ("alertRules.holdDownMs: …"),
 * and refuses credential material (a PEM block, a JWT) in what a person sets, so a pasted token or key
 * never reaches the settings file.
 *
 * What the engine writes (the alert log, the last-known inventories) is not searched: it is made of
 * Kubernetes names and cluster text that passed the text gate where it entered (shownText redacts
 * secrets there), and the schema's own limits are the engine's. A second, stricter filter here refused
 * valid alerts (a node named `gpu-id-token-1`) and dropped them from the log.
 */
import { Value } from '@sinclair/typebox/value';
import { clusterText } from '../../common/cluster-text.ts';
import type { ErrorKind } from '../../common/errors.ts';
import { type Settings, SettingsSchema } from '../../common/settings.ts';
import type { SettingsWords } from '../../common/settings-words.ts';
import { errorText } from '../../common/validate.ts';

export class SettingsError extends Error {
  /** Its kind where it crosses a process (common/errors.ts asErrorInfo keeps its words with it). */
  readonly kind: ErrorKind = 'failed';
  constructor(
    message: string,
    /** The fields at fault, dotted ("alertRules.holdDownMs"); empty when the fault is not a field's. */
    readonly fields: string[],
    /** The refusal as facts, for the window to word in its language (common/settings-words.ts). */
    readonly words?: SettingsWords,
  ) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** Field names as words carry them: joined, through the text gate, short enough for the check. */
export const fieldNames = (fields: readonly string[]) => clusterText(fields.join(', '), 240);

/** A JSON pointer as a dotted field name. */
export const dotted = (pointer: string) => pointer.replace(/^\//, '').replaceAll('/', '.') || '(root)';

/** Up to `max` "field: message" lines, one per field. */
export function settingsProblems(value: unknown, max = 5): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  const seen = new Set<string>();
  for (const e of Value.Errors(SettingsSchema, value)) {
    const field = dotted(e.path);
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, message: errorText(e) });
    if (out.length >= max) break;
  }
  return out;
}

// PEM blocks and JWTs: what a key or token looks like when pasted. Words such as `id-token` are not
// credentials (they are valid parts of Kubernetes names) and are not searched for.
const CREDENTIAL_PATTERNS = [
  /-----BEGIN [A-Z ]*(PRIVATE KEY|CERTIFICATE)-----/,
  /\beyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/,
];

/** Fields only the engine writes, from gated cluster data (see the module comment). */
const ENGINE_FIELDS: ReadonlySet<string> = new Set(['alertLog', 'lastKnown']);

/** The first field (dotted path) whose text looks like a credential, or null. */
export function findCredential(value: unknown, path = ''): string | null {
  if (typeof value === 'string')
    return CREDENTIAL_PATTERNS.some((p) => p.test(value)) ? path || '(root)' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    if (path === '' && ENGINE_FIELDS.has(k)) continue;
    if (CREDENTIAL_PATTERNS.some((p) => p.test(k))) return path ? `${path}.${k}` : k;
    const hit = findCredential(v, path ? `${path}.${k}` : k);
    if (hit !== null) return hit;
  }
  return null;
}

/** Returns the document typed, or throws a SettingsError naming the fields. */
export function assertSettings(value: unknown): Settings {
  if (!Value.Check(SettingsSchema, value)) {
    const problems = settingsProblems(value);
    const text = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
    const fields = problems.map((p) => p.field);
    throw new SettingsError(`Invalid settings: ${text}.`, fields, {
      code: 'settingsInvalid',
      fields: fieldNames(fields),
    });
  }
  const credential = findCredential(value);
  if (credential !== null) {
    throw new SettingsError(
      `Invalid settings: ${credential} looks like a credential; settings keep context names only.`,
      [credential],
      { code: 'settingsCredential', field: fieldNames([credential]) },
    );
  }
  return value;
}
