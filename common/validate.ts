/** Validation of untrusted payloads against the contract's schemas, with one readable sentence on failure. */
import type { Static, TSchema } from '@sinclair/typebox';
import type { ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';

/** What is wrong, in a sentence: the schema's own `errorMessage` where it has one, else TypeBox's words. */
export function errorText(e: ValueError): string {
  return typeof e.schema.errorMessage === 'string' ? e.schema.errorMessage : e.message;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export function check<S extends TSchema>(schema: S, value: unknown): Checked<Static<S>> {
  if (Value.Check(schema, value)) return { ok: true, value: value as Static<S> };
  const first = Value.Errors(schema, value).First();
  const where = first?.path ? first.path : '(root)';
  return {
    ok: false,
    error: `invalid value at ${where}: ${first ? errorText(first) : 'does not match the schema'}`,
  };
}
