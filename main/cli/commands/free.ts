/** `gpu-fleet free`: free GPUs by product across the chosen contexts, one read of nodes and pods each. */
import { parseFlags } from '../flags.ts';
import { type CliIo, terminalLine } from '../io.ts';
import { loadForCli, pickContexts, TARGET_FLAGS } from '../kube-target.ts';
import { parseOutput, toJson, toYaml } from '../output.ts';
import { formatFree } from './free-format.ts';
import { readFree } from './free-read.ts';

export async function freeCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, { ...TARGET_FLAGS, output: { type: 'string', short: 'o' } }, 'free');
  const format = parseOutput(flags.output, ['table', 'wide', 'json', 'yaml'], 'table');
  const contexts = pickContexts(loadForCli(flags, io), flags);
  const reads = await Promise.all(contexts.map((ctx) => readFree(ctx)));
  if (format === 'json' || format === 'yaml') {
    const doc = { contexts: reads.map(({ context, free, error }) => ({ context, free, error })) };
    io.stdout.write(format === 'json' ? toJson(doc) : toYaml(doc));
  } else io.stdout.write(formatFree(reads, format === 'wide'));
  for (const r of reads)
    if (r.error !== null) io.stderr.write(terminalLine(`error: context "${r.context}": ${r.error}`));
  return reads.some((r) => r.error !== null) ? 1 : 0;
}
