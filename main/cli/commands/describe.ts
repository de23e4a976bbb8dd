/** `gpu-fleet describe NODE`: why a node is (not) Ready, its GPU facts, GPU pods and recent events. */
import { parseArgs } from 'node:util';
import { clusterText } from '../../../common/cluster-text.ts';
import { isNodeName } from '../../../common/k8s-names.ts';
import { formatDescribe } from '../../diagnosis/describe-text.ts';
import { fetchNodeDetail } from '../../diagnosis/detail.ts';
import { systemClock } from '../../kube/clock.ts';
import { ContextClient } from '../../kube/context-client.ts';
import { toKubeError } from '../../kube/error-classify.ts';
import { readTelemetry } from '../../telemetry/one-shot.ts';
import { CliError, type CliIo } from '../io.ts';
import { loadForCli, pickContexts } from '../kube-target.ts';
import { parseOutput, toJson, toYaml } from '../output.ts';

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        output: { type: 'string', short: 'o' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const message =
      error instanceof Error ? error.message.replace(/^Unknown option/, 'unknown flag') : String(error);
    throw new CliError(`${message}\nSee 'gpu-fleet describe --help' for usage.`);
  }
}

export async function describeCommand(args: string[], io: CliIo): Promise<number> {
  const { values: flags, positionals } = parse(args);
  const [node, ...extra] = positionals;
  if (node === undefined) throw new CliError('describe needs a node name: gpu-fleet describe NODE');
  if (extra.length > 0) throw new CliError('describe takes one node name');
  if (!isNodeName(node)) throw new CliError(`"${clusterText(node, 80)}" is not a valid node name`);
  const format = parseOutput(flags.output, ['table', 'json', 'yaml'], 'table');
  const [ctx] = pickContexts(loadForCli(flags, io), flags);
  if (!ctx) throw new CliError('no context to read');
  let client: ContextClient | null = null;
  try {
    client = new ContextClient(ctx);
    const now = Date.now();
    const detail = await fetchNodeDetail(client, ctx.name, node, { now });
    if (detail === null) throw new CliError(`node "${node}" not found in context "${ctx.name}"`);
    if (detail.gpu !== null)
      detail.telemetry = (await readTelemetry(client, ctx.name, [node], systemClock)).get(node) ?? null;
    // `gpus[]`: the DCGM telemetry per GPU (empty when there is none; `telemetry` says why).
    const doc = { ...detail, gpus: detail.telemetry?.state === 'ok' ? detail.telemetry.gpus : [] };
    if (format === 'json') io.stdout.write(toJson(doc));
    else if (format === 'yaml') io.stdout.write(toYaml(doc));
    else io.stdout.write(`${formatDescribe(detail, now)}\n`);
    for (const p of detail.partial) io.stderr.write(`warning: ${p}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CliError) throw error;
    const server = ctx.cluster?.cluster.server ?? ctx.clusterName;
    throw new CliError(`context "${ctx.name}": ${clusterText(toKubeError(error, server).message)}`);
  } finally {
    client?.close();
  }
}
