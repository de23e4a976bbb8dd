/**
 * `gpu-fleet fit`: can a job with N GPUs run now, on which nodes of which clusters, and otherwise why not,
 * per cluster, in the order a user fixes things (inventory/fit.ts). Exit 0 when it fits somewhere, 1 when
 * not, 2 on a usage error, 3 when it cannot be told (no fit found, and a cluster that offers the product
 * has unknown free GPUs or could not be read).
 */

import { SENTENCE_MAX } from '../../../common/cluster-text.ts';
import {
  askText,
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
import { readClusters } from './free-contexts.ts';

/** Exit status when it cannot be told whether the job fits (neither 0 nor 1, which would be a guess). */
export const UNKNOWN_EXIT = 3;

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
  /** Other contexts of the same cluster, counted with this one. */
  same_cluster?: string[];
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
  const reads = await readClusters(contexts);
  const results: ContextFit[] = reads.map((read) => {
    const same = read.also.length > 0 ? { same_cluster: read.also } : {};
    if (read.error !== null)
      return { context: read.context, ...same, fits: [], reasons: [], error: read.error };
    const unknown = read.free.state === 'unknown' ? (read.free.message ?? 'free GPUs unknown') : null;
    const r = fitCluster(read.nodes, request, unknown);
    return {
      context: read.context,
      ...same,
      fits: r.fits,
      reasons: r.reasons.map((x) => ({ ...x, message: reasonSentence(x, request) })),
      error: null,
    };
  });
  const verdict = verdictOf(results);
  const fits = verdict === 'fits';
  if (format === 'json' || format === 'yaml') {
    const doc = { request: { ...request, asks: wantText(request) }, fits, verdict, contexts: results };
    io.stdout.write(format === 'json' ? toJson(doc) : toYaml(doc));
  } else io.stdout.write(formatFit(results, request, verdict));
  return verdict === 'fits' ? 0 : verdict === 'unknown' ? UNKNOWN_EXIT : 1;
}

type Verdict = 'fits' | 'does-not-fit' | 'unknown';

/** Fits somewhere; else unknown while a cluster could not tell (read failed, or pods unknown where offered). */
function verdictOf(results: readonly ContextFit[]): Verdict {
  if (results.some((r) => r.fits.length > 0)) return 'fits';
  const untold = results.some((r) => r.error !== null || r.reasons.some((x) => x.kind === 'pods-unknown'));
  return untold ? 'unknown' : 'does-not-fit';
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

function formatFit(results: readonly ContextFit[], request: FitRequest, verdict: Verdict): string {
  const lines: string[] = [];
  const rows = results.flatMap((r) =>
    r.fits.map((f) => [r.context, f.node, f.product ?? '<unlabeled>', f.resource, String(f.free)]),
  );
  if (rows.length > 0)
    lines.push(...alignColumns([['CONTEXT', 'NODE', 'PRODUCT', 'RESOURCE', 'FREE'], ...rows]));
  else if (verdict === 'unknown')
    lines.push(
      `cannot tell whether ${askText(request)} fit${request.count === 1 ? 's' : ''} now: no fit found, and free GPUs are unknown where they are offered`,
    );
  else lines.push(`${askText(request)}: no node can take ${request.count === 1 ? 'it' : 'them'} now`);
  for (const r of results) {
    if (r.fits.length > 0) continue;
    const untold = r.error !== null || r.reasons.some((x) => x.kind === 'pods-unknown');
    const aliases = r.same_cluster === undefined ? '' : ` (the same cluster as ${r.same_cluster.join(', ')})`;
    lines.push(
      '',
      shownText(`${r.context}${aliases}: ${untold ? 'cannot tell' : 'does not fit'}`, SENTENCE_MAX),
    );
    if (r.error !== null) lines.push(`  - ${shownText(`error: ${r.error}`, SENTENCE_MAX)}`);
    for (const reason of r.reasons) lines.push(`  - ${shownText(reason.message, SENTENCE_MAX)}`);
  }
  return `${lines.join('\n')}\n`;
}
