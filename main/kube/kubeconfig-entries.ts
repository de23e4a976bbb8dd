/**
 * Validation of the entries of one kubeconfig file (untrusted YAML) into client-node's shapes.
 * Relative paths (certificate-authority, client-certificate, client-key, token-file, an exec command with
 * a slash) resolve against the file's folder, as kubectl does. A bad entry throws a sentence naming it.
 */

import path from 'node:path';
import type { Cluster, User } from '@kubernetes/client-node';
import { hasControlChars } from '../../common/cluster-text.ts';
import { wordsEnglish } from '../../common/i18n/words-text.ts';
import { isObj, type JsonRecord } from '../../common/json-guards.ts';
import type { ContextNameFault } from '../../common/kubeconfig-words.ts';
import { displayServerUrl } from '../../common/server-url.ts';
import type { ExecSpec } from './kubeconfig-types.ts';

type Obj = JsonRecord;

/** The string at `key`, undefined when absent or empty; anything else throws a sentence naming the entry. */
function stringField(o: Obj, key: string, where: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new Error(`${where}.${key} must be a string`);
  return v;
}

function abs(dir: string, p: string | undefined): string | undefined {
  return p === undefined ? undefined : path.resolve(dir, p);
}

/** `{name, <kind>: {...}}` → [name, body]. */
/**
 * The longest context name accepted: what the settings (monitored contexts, the alert log) and the
 * window's contract hold; kubeconfigs rarely need 100.
 */
export const CONTEXT_NAME_MAX = 253;

/**
 * Why `name` cannot be a context name, or null: the one rule, applied where a kubeconfig is read (a
 * context it refuses is ignored with a warning) and by use-context, so every context the app lists can
 * be stored and alerted on.
 */
export function contextNameProblem(name: string): string | null {
  const fault = contextNameFault(name);
  return fault === null ? null : wordsEnglish({ code: 'kubeBadName', fault, max: CONTEXT_NAME_MAX });
}

/** The same rule as a fault code (the window words it, common/kubeconfig-words.ts). */
export function contextNameFault(name: string): ContextNameFault | null {
  if (name === '') return 'empty';
  if (name.length > CONTEXT_NAME_MAX) return 'tooLong';
  if (hasControlChars(name)) return 'control';
  return null;
}

export function named(entry: unknown, kind: string, i: number): [string, Obj] {
  const where = `${kind}s[${i}]`;
  if (!isObj(entry)) throw new Error(`${where} is not a mapping`);
  const name = stringField(entry, 'name', where);
  if (!name) throw new Error(`${where} has no name`);
  const problem = kind === 'context' ? contextNameProblem(name) : null;
  if (problem !== null) throw new Error(`${where}: ${problem.replace(/\.$/, '')}`);
  const body = entry[kind] ?? {};
  if (!isObj(body)) throw new Error(`${kind} "${name}" has no ${kind} mapping`);
  return [name, body];
}

export function parseCluster(name: string, c: Obj, dir: string): Cluster {
  const where = `cluster "${name}"`;
  const server = stringField(c, 'server', where);
  if (!server) throw new Error(`${where} has no server`);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`${where} has an invalid server address "${displayServerUrl(server)}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`${where} has a server address that is not http(s): "${displayServerUrl(server)}"`);
  }
  return {
    name,
    server: server.replace(/\/$/, ''),
    caData: stringField(c, 'certificate-authority-data', where),
    caFile: abs(dir, stringField(c, 'certificate-authority', where)),
    skipTLSVerify: c['insecure-skip-tls-verify'] === true,
    tlsServerName: stringField(c, 'tls-server-name', where),
    proxyUrl: stringField(c, 'proxy-url', where),
  };
}

export function parseUser(name: string, u: Obj, dir: string): { user: User; exec: ExecSpec | null } {
  const where = `user "${name}"`;
  const exec = u.exec === undefined || u.exec === null ? null : parseExec(u.exec, dir, where);
  let authProvider = u['auth-provider'];
  if (authProvider !== undefined && authProvider !== null && !isObj(authProvider)) {
    throw new Error(`${where}.auth-provider must be a mapping`);
  }
  const token = stringField(u, 'token', where);
  const tokenFile = abs(dir, stringField(u, 'token-file', where));
  // client-node's FileAuth re-reads a token file every minute (rotated service-account tokens keep working).
  if (tokenFile && !token && !authProvider && !exec)
    authProvider = { name: 'tokenFile', config: { tokenFile } };
  const user: User = {
    name,
    certData: stringField(u, 'client-certificate-data', where),
    certFile: abs(dir, stringField(u, 'client-certificate', where)),
    keyData: stringField(u, 'client-key-data', where),
    keyFile: abs(dir, stringField(u, 'client-key', where)),
    token,
    username: stringField(u, 'username', where),
    password: stringField(u, 'password', where),
    impersonateUser: stringField(u, 'as', where),
    authProvider: authProvider ?? undefined,
  };
  return { user, exec };
}

function parseExec(e: unknown, dir: string, where: string): ExecSpec {
  const w = `${where}.exec`;
  if (!isObj(e)) throw new Error(`${w} must be a mapping`);
  const command = stringField(e, 'command', w);
  if (!command) throw new Error(`${w} has no command`);
  const args = e.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
    throw new Error(`${w}.args must be a list of strings`);
  const envList = e.env ?? [];
  if (!Array.isArray(envList)) throw new Error(`${w}.env must be a list`);
  const env = envList.map((v, i) => {
    if (!isObj(v) || typeof v.name !== 'string' || typeof v.value !== 'string') {
      throw new Error(`${w}.env[${i}] needs a name and a value`);
    }
    return { name: v.name, value: v.value };
  });
  const mode = stringField(e, 'interactiveMode', w) ?? 'IfAvailable';
  if (mode !== 'Never' && mode !== 'IfAvailable' && mode !== 'Always')
    throw new Error(`${w}.interactiveMode is invalid`);
  const hasDirPart = command.includes('/') || command.includes('\\');
  return {
    command: hasDirPart && !path.isAbsolute(command) ? path.resolve(dir, command) : command,
    args,
    env,
    apiVersion: stringField(e, 'apiVersion', w) ?? 'client.authentication.k8s.io/v1',
    interactiveMode: mode,
    provideClusterInfo: e.provideClusterInfo === true,
    installHint: stringField(e, 'installHint', w) ?? null,
  };
}

export interface RawContext {
  name: string;
  cluster: string;
  user: string | null;
  namespace: string | null;
}

export function parseContext(name: string, c: Obj): RawContext {
  const where = `context "${name}"`;
  const cluster = stringField(c, 'cluster', where);
  if (!cluster) throw new Error(`${where} names no cluster`);
  return {
    name,
    cluster,
    user: stringField(c, 'user', where) ?? null,
    namespace: stringField(c, 'namespace', where) ?? null,
  };
}
