/** `gpu-fleet sim`: run the built-in Kubernetes API simulator in the foreground until Ctrl-C. */
import { runSimCommand } from '../../../sim/cli.ts';
import { parseFlags } from '../flags.ts';
import { CliError, type CliIo } from '../io.ts';

export async function simCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(
    args,
    { scenario: { type: 'string' }, port: { type: 'string' }, 'kubeconfig-out': { type: 'string' } },
    'sim',
  );
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`invalid port "${flags.port}"`);
  const sim = await runSimCommand(
    {
      scenario: flags.scenario ?? 'homelab',
      port,
      ...(flags['kubeconfig-out'] ? { kubeconfigOut: flags['kubeconfig-out'] } : {}),
    },
    io.stdout,
  );
  await io.stopSignal;
  await sim.close();
  return 0;
}
