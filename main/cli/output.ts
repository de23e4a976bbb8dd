/** Output formats shared by the commands: `-o table|wide|json|yaml`. */
import { stringify } from 'yaml';
import { CliError } from './io.ts';

export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml';

export function parseOutput(
  value: string | undefined,
  allowed: readonly OutputFormat[],
  fallback: OutputFormat,
): OutputFormat {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as OutputFormat;
  throw new CliError(
    `unable to match a printer suitable for the output format "${value}", allowed formats are: ${allowed.join(',')}`,
  );
}

export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * As kubectl prints YAML: every value written out. The yaml library would otherwise turn a value that
 * occurs twice (one empty list shared by two fields) into an anchor and an alias (`resources: &a1 []`,
 * `problems: *a1`), which reads as noise and which many tools do not follow.
 */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}
