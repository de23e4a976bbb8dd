/** `gpu-fleet free`: free GPUs by product across the chosen contexts, one read of nodes and pods each. */
import { parseFlags } from '../flags.ts';
import { type CliIo, terminalLine } from '../io.ts';
import { loadForCli, pickContexts, TARGET_FLAGS } from '../kube-target.ts';
import { parseOutput, toJson, toYaml } from '../output.ts';
import { readClusters } from './free-contexts.ts';
import { formatFree } from './free-format.ts';

export async function freeCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, { ...TARGET_FLAGS, output: { type: 'string', short: 'o' } }, 'free');
  const format = parseOutput(flags.output, ['table', 'wide', 'json', 'yaml'], 'table');
  const contexts = pickContexts(loadForCli(flags, io), flags);
  // One cluster reached through several contexts is read and counted once (free-contexts.ts).
  const reads = await readClusters(contexts);
  if (format === 'json' || format === 'yaml') {
    const doc = {
      contexts: reads.map(({ context, also, free, error }) => ({
        context,
        ...(also.length > 0 ? { same_cluster: also } : {}),
        free,
        error,
      })),
    };
    io.stdout.write(format === 'json' ? toJson(doc) : toYaml(doc));
  } else io.stdout.write(formatFree(reads, format === 'wide'));
  // An error is said once, here (the table leaves it out).
  for (const r of reads)
    if (r.error !== null) io.stderr.write(terminalLine(`error: context "${r.context}": ${r.error}`));
  return reads.some((r) => r.error !== null) ? 1 : 0;
}
