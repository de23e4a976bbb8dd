/** kubectl-style flag parsing on node:util's parseArgs, with errors the user can read. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CliError } from './io.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<O extends Options>(args: string[], options: O, command: string) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw new CliError(flagMessage(error), 1, `See 'gpu-fleet ${command} --help' for usage.`);
  }
}

/**
 * node:util's parse errors in kubectl's words: `unknown flag: --x`, and `flag needs an argument: --context`
 * for a flag given without its value (Node says "Option '--context <value>' argument missing").
 */
function flagMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const missing = /^Option '(-[^ ']+)(?:, (--[^ ']+))?(?: <value>)?' argument missing/.exec(text);
  if (missing) return `flag needs an argument: ${missing[2] ?? missing[1]}`;
  const unknown = /^Unknown option '([^']+)'/.exec(text);
  if (unknown) return `unknown flag: ${unknown[1]}`;
  return text.replace(/^Unknown option/, 'unknown flag');
}

/** Durations like kubectl's: `30s`, `2m`, `1h`, `500ms`, or bare seconds. */
export function parseDuration(value: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match)
    throw new CliError(`invalid duration "${value}" for ${flag}: use a number with ms, s, m or h (e.g. 30s)`);
  const n = Number(match[1]);
  const unit = match[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  return Math.round(n * factor);
}
