/** `gpu-fleet contexts`: the kubeconfig's contexts, kubectl-style, and whether each is monitored. */
import { monitoredContexts } from '../../fleet/monitored.ts';
import { alignColumns } from '../../inventory/text-table.ts';
import { contextInfos } from '../../kube/kubeconfig.ts';
import { defaultConfigDir } from '../../settings/paths.ts';
import { openSettings } from '../../settings/store.ts';
import { parseFlags } from '../flags.ts';
import { type CliIo, terminalLine } from '../io.ts';
import { loadForCli } from '../kube-target.ts';
import { parseOutput, toJson, toYaml } from '../output.ts';

export async function contextsCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(
    args,
    { kubeconfig: { type: 'string' }, output: { type: 'string', short: 'o' } },
    'contexts',
  );
  const format = parseOutput(flags.output, ['table', 'json', 'yaml'], 'table');
  const loaded = loadForCli(flags, io);
  const settings = openSettings({ cwd: defaultConfigDir(io.env) });
  for (const notice of settings.notices) io.stderr.write(terminalLine(`warning: ${notice.message}`));
  const monitored = new Set(
    monitoredContexts(settings.get('contexts'), loaded.contexts, loaded.currentContext).map((c) => c.name),
  );
  const infos = contextInfos(loaded, (name) => monitored.has(name));
  if (format === 'json') io.stdout.write(toJson(infos));
  else if (format === 'yaml') io.stdout.write(toYaml(infos));
  else {
    const rows = [
      ['CURRENT', 'NAME', 'CLUSTER', 'AUTHINFO', 'NAMESPACE', 'MONITORED'],
      ...infos.map((c) => [
        c.current ? '*' : '',
        c.name,
        c.cluster,
        c.user,
        c.namespace ?? '',
        c.monitored ? 'yes' : 'no',
      ]),
    ];
    io.stdout.write(`${alignColumns(rows).join('\n')}\n`);
  }
  return 0;
}
