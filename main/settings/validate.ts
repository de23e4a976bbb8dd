/**
 * Checks a whole settings document and words what is wrong by field ("alertRules.holdDownMs: …"),
 * and refuses anything that looks like a credential, so tokens and keys never reach the settings file.
 */
import { Value } from '@sinclair/typebox/value';
import { type Settings, SettingsSchema } from './schema.ts';

export class SettingsError extends Error {
  constructor(
    message: string,
    /** The fields at fault, dotted ("alertRules.holdDownMs"); empty when the fault is not a field's. */
    readonly fields: string[],
  ) {
    super(message);
    this.name = 'SettingsError';
  }
}

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
    out.push({ field, message: e.message });
    if (out.length >= max) break;
  }
  return out;
}

// PEM blocks, JWTs and kubeconfig credential fields: what a token or key looks like when pasted.
const CREDENTIAL_PATTERNS = [
  /-----BEGIN [A-Z ]*(PRIVATE KEY|CERTIFICATE)-----/,
  /\beyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/,
  /\b(client-key-data|client-certificate-data|id-token|refresh-token)\b/i,
];

/** The first field (dotted path) whose text looks like a credential, or null. */
export function findCredential(value: unknown, path = ''): string | null {
  if (typeof value === 'string')
    return CREDENTIAL_PATTERNS.some((p) => p.test(value)) ? path || '(root)' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
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
    throw new SettingsError(
      `Invalid settings: ${text}.`,
      problems.map((p) => p.field),
    );
  }
  const credential = findCredential(value);
  if (credential !== null) {
    throw new SettingsError(
      `Invalid settings: ${credential} looks like a credential; settings keep context names only.`,
      [credential],
    );
  }
  return value;
}
