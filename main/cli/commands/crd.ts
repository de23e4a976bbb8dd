/** `gpu-fleet crd`: print the GpuInventory CustomResourceDefinition (to pipe into `kubectl apply -f -`). */
import { buildCrd, DEFAULT_CRD_GROUP, validateGroup } from '../../writeback/crd.ts';
import { parseFlags } from '../flags.ts';
import { CliError, type CliIo } from '../io.ts';
import { parseOutput, toJson, toYaml } from '../output.ts';

export async function crdCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(
    args,
    { group: { type: 'string' }, output: { type: 'string', short: 'o' } },
    'crd',
  );
  const group = flags.group ?? DEFAULT_CRD_GROUP;
  const problem = validateGroup(group);
  if (problem) throw new CliError(problem);
  const format = parseOutput(flags.output, ['yaml', 'json'], 'yaml');
  const crd = buildCrd(group);
  io.stdout.write(format === 'json' ? toJson(crd) : toYaml(crd));
  return 0;
}
