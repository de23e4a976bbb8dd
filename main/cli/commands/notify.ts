/** `gpu-fleet notify test KIND=URL`: send one test message to a forwarding target now and say how it went. */

import { parseArgs } from 'node:util';
import { Forwarder } from '../../forward/forwarder.ts';
import { FORWARD_FLAGS, forwardTargets } from '../forward-flags.ts';
import { CliError, type CliIo, terminalLine } from '../io.ts';

export async function notifyCommand(args: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw new CliError(
      error instanceof Error ? error.message : String(error),
      1,
      "See 'gpu-fleet notify --help' for usage.",
    );
  }
  const [verb, spec, ...extra] = parsed.positionals;
  if (verb !== 'test' || spec === undefined || extra.length > 0)
    throw new CliError(
      'usage: gpu-fleet notify test KIND=URL',
      1,
      "See 'gpu-fleet notify --help' for usage.",
    );
  const [target] = forwardTargets([spec], parsed.values, io.env);
  if (!target) throw new CliError('no target');
  const forwarder = new Forwarder([target]);
  const result = await forwarder.test(target.config.id);
  forwarder.stop();
  (result.ok ? io.stdout : io.stderr).write(terminalLine(result.message));
  return result.ok ? 0 : 1;
}

function parse(args: string[]) {
  const { forward: _repeatable, ...secrets } = FORWARD_FLAGS;
  return parseArgs({ args, options: secrets, allowPositionals: true, strict: true });
}
