/**
 * `gpu-fleet crd`: print the GpuInventory CustomResourceDefinition (to pipe into `kubectl apply -f -`),
 * or with `--install` install it into a context (after a permission check) and create the `cluster` object.
 */
import { clusterText } from '../../../common/cluster-text.ts';
import { systemClock } from '../../kube/clock.ts';
import { ContextClient } from '../../kube/context-client.ts';
import { isKubeError } from '../../kube/errors.ts';
import { buildCrd, crdName, DEFAULT_CRD_GROUP, validateGroup } from '../../writeback/crd.ts';
import { installWriteback, WriteError } from '../../writeback/index.ts';
import { parseFlags } from '../flags.ts';
import { CliError, type CliIo } from '../io.ts';
import { loadForCli, pickContexts } from '../kube-target.ts';
import { parseOutput, toJson, toYaml } from '../output.ts';

export async function crdCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(
    args,
    {
      group: { type: 'string' },
      output: { type: 'string', short: 'o' },
      install: { type: 'boolean' },
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
    },
    'crd',
  );
  const group = flags.group ?? DEFAULT_CRD_GROUP;
  const problem = validateGroup(group);
  if (problem) throw new CliError(problem);
  if (flags.install) return install(flags, group, io);
  const format = parseOutput(flags.output, ['yaml', 'json'], 'yaml');
  const crd = buildCrd(group);
  io.stdout.write(format === 'json' ? toJson(crd) : toYaml(crd));
  return 0;
}

async function install(
  flags: { kubeconfig?: string | undefined; context?: string | undefined },
  group: string,
  io: CliIo,
): Promise<number> {
  const [ctx] = pickContexts(loadForCli(flags, io), flags);
  if (!ctx) throw new CliError('no context to install into');
  let client: ContextClient;
  try {
    client = new ContextClient(ctx);
  } catch (e) {
    throw new CliError(isKubeError(e) ? e.message : String(e));
  }
  try {
    const r = await installWriteback(client, { group, clock: systemClock });
    const crdVerb =
      r.crd === 'created'
        ? 'created'
        : r.updated
          ? 'configured (schema updated)'
          : r.dropped.length === 0
            ? 'unchanged (already installed with the same shape)'
            : `unchanged (installed with another schema, which lacks ${r.dropped.join(', ')}; the API server drops those fields)`;
    io.stdout.write(`customresourcedefinition.apiextensions.k8s.io/${crdName(group)} ${crdVerb}\n`);
    io.stdout.write(`gpuinventory.${group}/cluster ${r.object === 'created' ? 'created' : 'unchanged'}\n`);
    return 0;
  } catch (e) {
    throw new CliError(e instanceof WriteError ? e.message : clusterText(String(e)));
  } finally {
    client.close();
  }
}
