/**
 * `gpu-fleet top [--context C]`: one pass over a context's GPU nodes — list nodes, find the DCGM exporters,
 * scrape each through the API server (a few at a time) — and one table row per GPU: utilisation,
 * temperature, memory and the last XID. A node without a reading gets one row saying why, in a column of
 * its own (NOTE), never in a column that means something else.
 */
import { productlessNodes } from '../../../common/inventory-counts.ts';
import type { NodeTelemetry } from '../../../common/telemetry.ts';
import { alignColumns } from '../../inventory/text-table.ts';
import { systemClock } from '../../kube/clock.ts';
import { ContextClient } from '../../kube/context-client.ts';
import { toKubeError } from '../../kube/error-classify.ts';
import { readTelemetry } from '../../telemetry/one-shot.ts';
import { parseFlags } from '../flags.ts';
import { CliError, type CliIo, terminalLine } from '../io.ts';
import { loadForCli, pickContexts } from '../kube-target.ts';
import { parseOutput, toJson } from '../output.ts';
import { scanContext } from './scan.ts';

/** A one-shot table reads at most this many nodes (a 5,000-node cluster is not scraped all at once). */
export const TOP_MAX_NODES = 200;
const NONE = '-';

/** NOTE of a node whose GPU labels are gone: its MODEL is the exporter's word, not a label's. */
export const FROM_TELEMETRY_NOTE = 'no GPU labels; model from telemetry';

/** @param unlabeled nodes without a product label (their rows say the model is telemetry's). */
export function topTable(
  rows: { node: string; telemetry: NodeTelemetry }[],
  unlabeled: ReadonlySet<string> = new Set(),
): string {
  const n = (v: number | null, unit: string) => (v === null ? NONE : `${Math.round(v)}${unit}`);
  const lines: string[][] = [['NODE', 'GPU', 'MODEL', 'UTIL', 'TEMP', 'MEMORY', 'XID', 'NOTE']];
  for (const { node, telemetry: t } of rows) {
    if (t.state === 'unavailable') {
      lines.push([node, NONE, NONE, NONE, NONE, NONE, NONE, t.message]);
      continue;
    }
    for (const g of t.gpus)
      lines.push([
        node,
        String(g.index),
        g.model ?? NONE,
        n(g.utilPercent, '%'),
        n(g.temperatureC, 'C'),
        g.memoryUsedMiB === null || g.memoryTotalMiB === null
          ? NONE
          : `${g.memoryUsedMiB}/${g.memoryTotalMiB}MiB`,
        g.xid === null ? NONE : String(g.xid),
        unlabeled.has(node) && g.model !== null ? FROM_TELEMETRY_NOTE : '',
      ]);
  }
  return alignColumns(lines).join('\n');
}

export async function topCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(
    args,
    { kubeconfig: { type: 'string' }, context: { type: 'string' }, output: { type: 'string', short: 'o' } },
    'top',
  );
  const format = parseOutput(flags.output, ['table', 'json'], 'table');
  const [ctx] = pickContexts(loadForCli(flags, io), flags);
  if (!ctx) throw new CliError('no context to read');
  const scan = await scanContext(ctx);
  if (scan.error !== null) throw new CliError(`context "${ctx.name}": ${scan.error}`);
  const all = scan.inventory.nodes.map((n) => n.name);
  const nodes = all.slice(0, TOP_MAX_NODES);
  let client: ContextClient | null = null;
  try {
    client = new ContextClient(ctx);
    const read = await readTelemetry(client, ctx.name, nodes, systemClock);
    const rows = nodes.map((node) => ({
      node,
      telemetry: read.get(node) ?? { state: 'unavailable' as const, message: 'not read', scrapedAt: null },
    }));
    if (format === 'json') io.stdout.write(toJson({ context: ctx.name, nodes: rows }));
    else if (rows.length === 0) io.stdout.write(terminalLine(`context "${ctx.name}" has no GPU nodes`));
    else io.stdout.write(`${topTable(rows, new Set(productlessNodes(scan.inventory)))}\n`);
    if (all.length > nodes.length)
      io.stderr.write(
        terminalLine(`warning: only the first ${TOP_MAX_NODES} of ${all.length} GPU nodes were read`),
      );
    return 0;
  } catch (error) {
    const server = ctx.cluster?.cluster.server ?? ctx.clusterName;
    throw new CliError(`context "${ctx.name}": ${toKubeError(error, server).message}`);
  } finally {
    client?.close();
  }
}
