/**
 * Reads one kubeconfig file: permissions check, YAML parse, entry validation. A broken entry is a warning
 * (the rest of the file is used); a broken file is one error naming the file and the problem.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isObj } from '../../common/json-guards.ts';
import { mib, readBoundedFile } from '../settings/bounded-file.ts';
import { named, parseCluster, parseContext, parseUser, type RawContext } from './kubeconfig-entries.ts';
import type { KubeconfigWarning, SourcedCluster, SourcedUser } from './kubeconfig-types.ts';

export interface ParsedKubeconfigFile {
  file: string;
  clusters: SourcedCluster[];
  users: SourcedUser[];
  contexts: RawContext[];
  /** Raw entries by kind and name, to tell a real duplicate from the same entry listed twice. */
  rawByName: Map<string, string>;
  currentContext: string | null;
  warnings: KubeconfigWarning[];
}

export type ReadResult =
  | { ok: true; parsed: ParsedKubeconfigFile }
  | { ok: false; missing: boolean; tooLarge?: true; message: string };

/**
 * Larger than any real kubeconfig (dozens of clusters with embedded certificates stay under 1 MiB); the
 * same cap for every read of a kubeconfig: loading, the re-read on change, and use-context's write.
 */
export const KUBECONFIG_MAX_BYTES = 4 * 1024 * 1024;

export function readKubeconfigFile(file: string, platform: NodeJS.Platform = process.platform): ReadResult {
  const warnings: KubeconfigWarning[] = [];
  // Capped before anything is read; a FIFO, a device or a symlink to /dev/zero is refused unread.
  const read = readBoundedFile(file, KUBECONFIG_MAX_BYTES);
  if (!read.ok) {
    if (read.reason === 'missing') return { ok: false, missing: true, message: `${file} does not exist.` };
    const rule = `a kubeconfig must be a regular file of at most ${mib(KUBECONFIG_MAX_BYTES)}`;
    const message = `${file} ${read.why}; ${rule}.`;
    return { ok: false, missing: false, ...(read.reason === 'too-large' ? { tooLarge: true } : {}), message };
  }
  const text = read.bytes.toString('utf8');
  try {
    const st = fs.statSync(file);
    if (platform !== 'win32' && (st.mode & 0o077) !== 0) {
      const mode = (st.mode & 0o777).toString(8).padStart(3, '0');
      warnings.push({
        kind: 'permissions',
        file,
        message: `${file} can be read by other users (mode ${mode}); it holds credentials: run chmod 600 on it.`,
      });
    }
  } catch {
    // Read a moment ago: a file gone since has no permissions to warn about.
  }
  let doc: unknown;
  try {
    doc = parseYaml(text, { prettyErrors: true });
  } catch (err) {
    // The first line of yaml's pretty error ends with ':' before a code excerpt; one sentence is enough.
    const msg = (err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err)).replace(
      /:\s*$/,
      '',
    );
    return { ok: false, missing: false, message: `${file} is not valid YAML: ${msg}.` };
  }
  if (doc === null || doc === undefined) doc = {};
  if (!isObj(doc))
    return {
      ok: false,
      missing: false,
      message: `${file} is not a kubeconfig (expected a mapping at the top).`,
    };
  for (const key of ['clusters', 'users', 'contexts']) {
    const v = doc[key];
    if (v !== undefined && v !== null && !Array.isArray(v)) {
      return { ok: false, missing: false, message: `${file} is not a kubeconfig: "${key}" must be a list.` };
    }
  }
  return { ok: true, parsed: parseDoc(file, doc, warnings) };
}

function parseDoc(
  file: string,
  doc: Record<string, unknown>,
  warnings: KubeconfigWarning[],
): ParsedKubeconfigFile {
  const dir = path.dirname(path.resolve(file));
  const out: ParsedKubeconfigFile = {
    file,
    clusters: [],
    users: [],
    contexts: [],
    rawByName: new Map(),
    currentContext:
      typeof doc['current-context'] === 'string' && doc['current-context'] ? doc['current-context'] : null,
    warnings,
  };
  const each = (
    kind: 'cluster' | 'user' | 'context',
    fn: (name: string, body: Record<string, unknown>) => void,
  ) => {
    const list = doc[`${kind}s`];
    if (!Array.isArray(list)) return;
    list.forEach((entry, i) => {
      try {
        const [name, body] = named(entry, kind, i);
        out.rawByName.set(`${kind}/${name}`, JSON.stringify(body));
        fn(name, body);
      } catch (err) {
        const message = `${file}: ${err instanceof Error ? err.message : String(err)}; that entry is ignored.`;
        warnings.push({ kind: 'invalid-entry', file, message });
      }
    });
  };
  each('cluster', (name, body) => {
    const cluster = parseCluster(name, body, dir);
    out.clusters.push({ cluster, file });
    if (cluster.skipTLSVerify) {
      warnings.push({
        kind: 'insecure-skip-tls-verify',
        file,
        message: `Cluster "${name}" in ${file} sets insecure-skip-tls-verify: the server's identity is not checked.`,
      });
    }
  });
  each('user', (name, body) => out.users.push({ ...parseUser(name, body, dir), file }));
  each('context', (name, body) => out.contexts.push(parseContext(name, body)));
  return out;
}
