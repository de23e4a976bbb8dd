/** The `gpu-fleet` command: dispatches to a command, prints errors as one sentence, returns the exit code. */
import { COMMAND_HELP, USAGE } from './help.ts';
import { CliError, type CliIo, terminalLine } from './io.ts';
import { didYouMean } from './suggest.ts';
import { packageVersion } from './version.ts';

export type Command = (args: string[], io: CliIo) => Promise<number>;

/**
 * Commands are loaded lazily so `--help` stays fast and one command's dependencies never slow another.
 * A Map, because the name comes from the command line: `gpu-fleet constructor` must be an unknown command,
 * not Object's constructor.
 */
const COMMANDS = new Map<string, () => Promise<Command>>();

export function registerCommand(name: string, load: () => Promise<Command>): void {
  COMMANDS.set(name, load);
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(USAGE);
    return name === undefined ? 1 : 0;
  }
  if (name === '--version' || name === 'version') {
    io.stdout.write(`gpu-fleet ${packageVersion()}\n`);
    return 0;
  }
  const help = COMMAND_HELP.get(name);
  if (help !== undefined && (rest.includes('-h') || rest.includes('--help'))) {
    io.stdout.write(help);
    return 0;
  }
  const load = COMMANDS.get(name);
  if (!load) {
    io.stderr.write(terminalLine(`error: unknown command "${name}" for "gpu-fleet"`));
    io.stderr.write(didYouMean(name, COMMANDS.keys()));
    io.stderr.write("Run 'gpu-fleet --help' for usage.\n");
    return 1;
  }
  try {
    return await (await load())(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr.write(terminalLine(`error: ${error.message}`));
      if (error.hint !== null) io.stderr.write(`${error.hint}\n`);
      return error.exitCode;
    }
    io.stderr.write(terminalLine(`error: ${error instanceof Error ? error.message : String(error)}`));
    return 1;
  }
}
