/** Pure: strips anything that looks like a credential from log fields before they are written. */

const SECRET_KEY =
  /token|password|passwd|secret|authorization|bearer|private|client-key|key-data|cert-data|credential/i;
const SECRET_VALUE = [
  /-----BEGIN [A-Z ]+-----/, // PEM blocks
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/, // JWTs
  /\bBearer\s+\S+/i,
];

export const REDACTED = '[redacted]';

export function redactString(value: string): string {
  return SECRET_VALUE.some((re) => re.test(value)) ? REDACTED : value;
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[deep]';
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error) return redactString(value.message);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? REDACTED : redact(v, depth + 1);
    return out;
  }
  return value;
}
