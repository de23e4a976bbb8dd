/**
 * What the one settings schema refuses in a window's patch, as facts the window words in its language
 * (renderer/lib/settings-form.ts): the field's path and the limits its schema sets. Here, below the
 * renderer, because `Value.Errors` is TypeBox's and the renderer imports no package but svelte.
 */
import type { TSchema } from '@sinclair/typebox';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { SettingsPatchSchema } from './settings.ts';

export interface PatchProblem {
  /** The refused field, as keys: ['alertRules', 'holdDownMs'], ['controllerNamespace', '<context>']. */
  path: string[];
  /** The value is above the schema's maximum (rather than of the wrong kind or form). */
  tooLarge: boolean;
  /** The limits the field's schema sets (of a union's members, e.g. a price or null). */
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

const TOO_LARGE: ReadonlySet<ValueErrorType> = new Set([
  ValueErrorType.IntegerMaximum,
  ValueErrorType.NumberMaximum,
  ValueErrorType.ArrayMaxItems,
  ValueErrorType.ObjectMaxProperties,
  ValueErrorType.StringMaxLength,
]);

/** A JSON pointer's keys (RFC 6901: `~1` is `/`, `~0` is `~`). */
const keys = (pointer: string) =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));

function limits(schema: TSchema): Pick<PatchProblem, 'minimum' | 'maximum' | 'maxLength'> {
  const members: TSchema[] = Array.isArray(schema.anyOf) ? schema.anyOf : [schema];
  const out: Pick<PatchProblem, 'minimum' | 'maximum' | 'maxLength'> = {};
  for (const m of members) {
    if (typeof m.minimum === 'number') out.minimum = m.minimum;
    if (typeof m.maximum === 'number') out.maximum = m.maximum;
    if (typeof m.maxLength === 'number') out.maxLength = m.maxLength;
  }
  return out;
}

/** Up to `max` problems of a settings patch, one per field (its first); none when the schema takes it. */
export function settingsPatchProblems(patch: unknown, max = 50): PatchProblem[] {
  const out: PatchProblem[] = [];
  const seen = new Set<string>();
  for (const e of Value.Errors(SettingsPatchSchema, patch)) {
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    out.push({ path: keys(e.path), tooLarge: TOO_LARGE.has(e.type), ...limits(e.schema) });
    if (out.length >= max) break;
  }
  return out;
}
