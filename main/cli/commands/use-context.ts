/**
 * `gpu-fleet use-context NAME [--kubeconfig F]`: kubectl's `config use-context`, writing where kubectl
 * would and changing only the current-context value (main/kube/use-context.ts). Like kubectl it prints
 * `Switched to context "NAME".`, also when the context already was the current one (nothing is written
 * then); a refusal is one sentence on stderr and exit status 1.
 */
import { parseArgs } from 'node:util';
import { UseContextError, useContext } from '../../kube/use-context.ts';
import { CliError, type CliIo, terminalLine } from '../io.ts';

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      options: { kubeconfig: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const message =
      error instanceof Error ? error.message.replace(/^Unknown option/, 'unknown flag') : String(error);
    throw new CliError(message, 1, "See 'gpu-fleet use-context --help' for usage.");
  }
}

export async function useContextCommand(args: string[], io: CliIo): Promise<number> {
  const { values: flags, positionals } = parse(args);
  const [name, ...extra] = positionals;
  if (name === undefined)
    throw new CliError(
      'use-context needs a context name: gpu-fleet use-context NAME',
      1,
      "See 'gpu-fleet contexts' for the names.",
    );
  if (extra.length > 0) throw new CliError('use-context takes one context name');
  try {
    const result = useContext(name, { explicitPath: flags.kubeconfig ?? null, env: io.env });
    io.stdout.write(terminalLine(`Switched to context "${result.name}".`));
    return 0;
  } catch (error) {
    if (error instanceof UseContextError) throw new CliError(error.message);
    throw error;
  }
}
