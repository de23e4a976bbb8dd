/**
 * Finds and merges kubeconfig files the way kubectl does: --kubeconfig, else every file in KUBECONFIG
 * (first file wins on duplicate cluster/user/context names, current-context from the first file that sets
 * one), else ~/.kube/config. Nothing found is a 'none' result the UI turns into "try the demo cluster";
 * there is never a silent fallback to localhost.
 */
import os from 'node:os';
import path from 'node:path';
import type { KubeContextInfo } from '../../common/fleet.ts';
import { displayServerUrl } from '../../common/server-url.ts';
import type { RawContext } from './kubeconfig-entries.ts';
import { readKubeconfigFile } from './kubeconfig-file.ts';
import type {
  KubeconfigFileError,
  KubeconfigLoad,
  KubeconfigSource,
  KubeconfigWarning,
  LoadedKubeconfig,
  ResolvedContext,
  SourcedCluster,
  SourcedUser,
} from './kubeconfig-types.ts';

export interface KubeconfigLocateOptions {
  /** The --kubeconfig flag. */
  explicitPath?: string | null;
  env?: NodeJS.ProcessEnv;
  home?: string;
  platform?: NodeJS.Platform;
}

/** The files to read, in merge order, and where that list came from. */
export function locateKubeconfigFiles(opts: KubeconfigLocateOptions = {}): {
  source: KubeconfigSource;
  files: string[];
} {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  if (opts.explicitPath) return { source: 'flag', files: [path.resolve(opts.explicitPath)] };
  const list = env.KUBECONFIG;
  if (list) {
    const sep = platform === 'win32' ? ';' : ':';
    const files = [
      ...new Set(
        list
          .split(sep)
          .filter((f) => f.trim() !== '')
          .map((f) => path.resolve(f)),
      ),
    ];
    if (files.length > 0) return { source: 'env', files };
  }
  return { source: 'default', files: [path.join(opts.home ?? os.homedir(), '.kube', 'config')] };
}

export function loadKubeconfig(opts: KubeconfigLocateOptions = {}): KubeconfigLoad {
  const { source, files } = locateKubeconfigFiles(opts);
  const warnings: KubeconfigWarning[] = [];
  const errors: KubeconfigFileError[] = [];
  const clusters = new Map<string, SourcedCluster>();
  const users = new Map<string, SourcedUser>();
  const contexts = new Map<string, RawContext & { file: string }>();
  const raw = new Map<string, { file: string; body: string }>();
  const read: string[] = [];
  let currentContext: string | null = null;

  for (const file of files) {
    const r = readKubeconfigFile(file, opts.platform);
    if (!r.ok) {
      // kubectl skips KUBECONFIG entries that do not exist; we do too, but say so.
      if (r.missing && source === 'env')
        warnings.push({
          kind: 'missing-file',
          file,
          message: `KUBECONFIG names ${file}, which does not exist.`,
        });
      else if (!r.missing)
        errors.push({ file, message: r.message, ...(r.tooLarge ? { tooLarge: r.tooLarge } : {}) });
      continue;
    }
    const p = r.parsed;
    read.push(file);
    warnings.push(...p.warnings);
    currentContext ??= p.currentContext;
    const keep = <T>(kind: string, name: string, map: Map<string, T>, value: T) => {
      const key = `${kind}/${name}`;
      const body = p.rawByName.get(key) ?? '';
      const first = raw.get(key);
      if (!first) {
        raw.set(key, { file, body });
        map.set(name, value);
      } else if (first.body !== body) {
        warnings.push({
          kind: 'duplicate',
          file,
          message: `The ${kind} "${name}" in ${file} is ignored: ${first.file} defines one with the same name first (rename one of them).`,
        });
      }
    };
    for (const c of p.clusters) keep('cluster', c.cluster.name, clusters, c);
    for (const u of p.users) keep('user', u.user.name, users, u);
    for (const c of p.contexts) keep('context', c.name, contexts, { ...c, file });
  }

  if (read.length === 0 && errors.length === 0) {
    const message =
      source === 'flag'
        ? `The kubeconfig file ${files[0]} does not exist.`
        : `No kubeconfig found (looked at ${files.join(', ')}); try the demo cluster.`;
    return { kind: 'none', source, searched: files, message };
  }
  const resolved: ResolvedContext[] = [...contexts.values()].map((c) => ({
    name: c.name,
    clusterName: c.cluster,
    userName: c.user,
    namespace: c.namespace,
    cluster: clusters.get(c.cluster) ?? null,
    user: c.user === null ? null : (users.get(c.user) ?? null),
    file: c.file,
  }));
  if (currentContext !== null && !contexts.has(currentContext)) currentContext = null;
  return { kind: 'loaded', source, files: read, contexts: resolved, currentContext, warnings, errors };
}

/** The contexts as the UI lists them: names only, never credentials; `monitored` is the caller's. */
export function contextInfos(
  loaded: LoadedKubeconfig,
  monitored: (name: string) => boolean = () => false,
): KubeContextInfo[] {
  return loaded.contexts.map((c) => ({
    name: c.name,
    cluster: c.clusterName,
    server: c.cluster ? displayServerUrl(c.cluster.cluster.server) : null,
    user: c.userName ?? '',
    namespace: c.namespace,
    current: c.name === loaded.currentContext,
    monitored: monitored(c.name),
    source: path.basename(c.file),
  }));
}

export function findContext(loaded: LoadedKubeconfig, name: string): ResolvedContext | null {
  return loaded.contexts.find((c) => c.name === name) ?? null;
}
