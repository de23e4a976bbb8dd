/** kubectl-style flag parsing on node:util's parseArgs, with errors the user can read. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CliError } from './io.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<O extends Options>(args: string[], options: O, command: string) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values;
  } catch (error) {
    const message =
      error instanceof Error ? error.message.replace(/^Unknown option/, 'unknown flag') : String(error);
    throw new CliError(message, 1, `See 'gpu-fleet ${command} --help' for usage.`);
  }
}

/** Durations like kubectl's: `30s`, `2m`, `1h`, `500ms`, or bare seconds. */
export function parseDuration(value: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match)
    throw new CliError(`invalid duration "${value}" for ${flag}: use a number with ms, s, m or h (e.g. 30s)`);
  const n = Number(match[1]);
  const unit = match[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  const ms = Math.round(n * factor);
  // Every duration flag ends up in a timer, and Node fires a timer over 2^31-1 ms (24.8 days) after 1 ms.
  if (ms > MAX_DURATION_MS)
    throw new CliError(
      `duration "${value}" for ${flag} is longer than 24h, the longest any of these waits may be`,
    );
  return ms;
}

/** The longest duration a flag accepts: a day, well under Node's timer limit. */
export const MAX_DURATION_MS = 24 * 3_600_000;
