/** Which kubeconfig and contexts a command works on, chosen the way kubectl chooses them. */
import { loadKubeconfig } from '../kube/kubeconfig.ts';
import type { LoadedKubeconfig, ResolvedContext } from '../kube/kubeconfig-types.ts';
import { noSuchContext } from '../kube/use-context.ts';
import { CliError, type CliIo, terminalLine } from './io.ts';

export interface TargetFlags {
  kubeconfig?: string | undefined;
  context?: string | undefined;
  'all-contexts'?: boolean | undefined;
}

export const TARGET_FLAGS = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  'all-contexts': { type: 'boolean' },
} as const;

/** Loads the kubeconfig; prints its warnings and per-file errors to stderr; fails with one sentence. */
export function loadForCli(flags: TargetFlags, io: CliIo): LoadedKubeconfig {
  const load = loadKubeconfig({ explicitPath: flags.kubeconfig ?? null, env: io.env });
  if (load.kind === 'none') {
    // One sentence of the CLI's own: the app's "try the demo cluster" means its window's demo button.
    if (load.source === 'flag') throw new CliError(load.message);
    throw new CliError(
      `No kubeconfig found (looked at ${load.searched.join(', ')}); to try the CLI, run 'gpu-fleet sim' in another terminal and use the kubeconfig it prints.`,
    );
  }
  for (const w of load.warnings) io.stderr.write(terminalLine(`warning: ${w.message}`));
  if (load.contexts.length === 0) {
    // Nothing usable: the file's own problem is the one sentence, not a vague "no contexts".
    const first = load.errors[0];
    if (first) throw new CliError(first.message);
    throw new CliError(`the kubeconfig (${load.files.join(', ')}) defines no contexts`);
  }
  for (const e of load.errors) io.stderr.write(terminalLine(`warning: ${e.message}`));
  return load;
}

export function pickContexts(load: LoadedKubeconfig, flags: TargetFlags): ResolvedContext[] {
  if (flags['all-contexts']) {
    if (flags.context) throw new CliError('--context and --all-contexts cannot be used together');
    return load.contexts;
  }
  const name = flags.context ?? load.currentContext;
  if (!name) throw new CliError('the kubeconfig sets no current-context; choose one with --context NAME');
  const ctx = load.contexts.find((c) => c.name === name);
  if (!ctx) throw new CliError(noSuchContext(name, load.files));
  return [ctx];
}
