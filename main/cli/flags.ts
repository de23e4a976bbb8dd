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

/** Durations like kubectl's: `30s`, `2m`, `1h`, `500ms`, or bare seconds; `7d` for days. */
export function parseDuration(
  value: string,
  flag: string,
  max: { ms: number; label: string } = { ms: MAX_DURATION_MS, label: '24h' },
): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match)
    throw new CliError(
      `invalid duration "${value}" for ${flag}: use a number with ms, s, m, h or d (e.g. 30s)`,
    );
  const n = Number(match[1]);
  const unit = match[2] ?? 's';
  const factor =
    unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : unit === 'h' ? 3_600_000 : 86_400_000;
  const ms = Math.round(n * factor);
  // A duration that reaches a timer must stay under Node's limit: a timer over 2^31-1 ms (24.8 days)
  // fires after 1 ms. Flags that only name a span of time (history's --since) pass their own cap.
  if (ms > max.ms)
    throw new CliError(`duration "${value}" for ${flag} is longer than ${max.label}, the longest it may be`);
  return ms;
}

/** The longest duration a flag accepts: a day, well under Node's timer limit. */
export const MAX_DURATION_MS = 24 * 3_600_000;
