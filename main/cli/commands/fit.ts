/**
 * `gpu-fleet fit`: can a job with N GPUs run now, on which nodes of which clusters, and otherwise why not,
 * per cluster, in the order a user fixes things (inventory/fit.ts). Exit 0 when it fits somewhere, 1 when
 * not, 2 on a usage error.
 */

import { SENTENCE_MAX } from '../../../common/cluster-text.ts';
import {
  type FitReason,
  type FitRequest,
  fitCluster,
  reasonSentence,
  wantText,
} from '../../inventory/fit.ts';
import { alignColumns } from '../../inventory/text-table.ts';
import { shownText } from '../../log/redact.ts';
import { parseFlags } from '../flags.ts';
import { CliError, type CliIo } from '../io.ts';
import { loadForCli, pickContexts, TARGET_FLAGS } from '../kube-target.ts';
import { parseOutput, toJson, toYaml } from '../output.ts';
import { fitRequestOf, USAGE_EXIT } from './fit-request.ts';
import { readFree } from './free-read.ts';

const FLAGS = {
  ...TARGET_FLAGS,
  gpus: { type: 'string' },
  product: { type: 'string' },
  mig: { type: 'string' },
  shared: { type: 'boolean' },
  tolerate: { type: 'string', multiple: true },
  filename: { type: 'string', short: 'f' },
  output: { type: 'string', short: 'o' },
} as const;

interface ContextFit {
  context: string;
  fits: ReturnType<typeof fitCluster>['fits'];
  reasons: (FitReason & { message: string })[];
  error: string | null;
}

export async function fitCommand(args: string[], io: CliIo): Promise<number> {
  const { request, format, contexts } = usageChecked(() => {
    const flags = parseFlags(args, FLAGS, 'fit');
    const request = fitRequestOf(flags);
    const format = parseOutput(flags.output, ['table', 'json', 'yaml'], 'table');
    return { request, format, contexts: pickContexts(loadForCli(flags, io), flags) };
  });
  const results: ContextFit[] = await Promise.all(
    contexts.map(async (ctx) => {
      const read = await readFree(ctx);
      if (read.error !== null) return { context: read.context, fits: [], reasons: [], error: read.error };
      const unknown = read.free.state === 'unknown' ? (read.free.message ?? 'free GPUs unknown') : null;
      const r = fitCluster(read.nodes, request, unknown);
      return {
        context: read.context,
        fits: r.fits,
        reasons: r.reasons.map((x) => ({ ...x, message: reasonSentence(x, request) })),
        error: null,
      };
    }),
  );
  const fits = results.some((r) => r.fits.length > 0);
  if (format === 'json' || format === 'yaml') {
    const doc = { request: { ...request, asks: wantText(request) }, fits, contexts: results };
    io.stdout.write(format === 'json' ? toJson(doc) : toYaml(doc));
  } else io.stdout.write(formatFit(results, request));
  return fits ? 0 : 1;
}

/** Runs the flag and file checks; their CliErrors are usage errors (exit 2). */
function usageChecked<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof CliError && error.exitCode !== USAGE_EXIT)
      throw new CliError(error.message, USAGE_EXIT, error.hint);
    throw error;
  }
}

function formatFit(results: readonly ContextFit[], request: FitRequest): string {
  const lines: string[] = [];
  const rows = results.flatMap((r) =>
    r.fits.map((f) => [r.context, f.node, f.product ?? '<unlabeled>', f.resource, String(f.free)]),
  );
  if (rows.length > 0)
    lines.push(...alignColumns([['CONTEXT', 'NODE', 'PRODUCT', 'RESOURCE', 'FREE'], ...rows]));
  else lines.push(`${request.count} × ${wantText(request)} fits nowhere now`);
  for (const r of results) {
    if (r.fits.length > 0) continue;
    lines.push('', shownText(`${r.context}: does not fit`, SENTENCE_MAX));
    if (r.error !== null) lines.push(`  - ${shownText(`error: ${r.error}`, SENTENCE_MAX)}`);
    for (const reason of r.reasons) lines.push(`  - ${shownText(reason.message, SENTENCE_MAX)}`);
  }
  return `${lines.join('\n')}\n`;
}
