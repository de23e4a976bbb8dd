/**
 * A context's effective connection settings as one opaque string, so a kubeconfig reload can keep the
 * contexts whose settings did not change. It is an HMAC under a key made fresh for each process: equal
 * within a run, useless to anyone who sees it (no offline guessing of a token from its hash).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readBoundedFile } from '../settings/bounded-file.ts';
import { KUBECONFIG_MAX_BYTES } from './kubeconfig-file.ts';
import type { ResolvedContext } from './kubeconfig-types.ts';

const KEY = randomBytes(32);

/** The digest of a file the context names, read as auth-local.ts reads it (regular, capped). */
export function fileDigest(file: string | undefined | null): string | null {
  if (!file) return null;
  const read = readBoundedFile(file, KUBECONFIG_MAX_BYTES);
  return read.ok ? createHmac('sha256', KEY).update(read.bytes).digest('hex') : `unreadable: ${read.reason}`;
}

/** Bytes (or text) as a keyed digest, comparable within this process only. */
export function digest(data: string | Buffer): string {
  return createHmac('sha256', KEY).update(data).digest('hex');
}

export function contextFingerprint(ctx: ResolvedContext): string {
  const c = ctx.cluster?.cluster;
  const u = ctx.user?.user;
  const material = {
    namespace: ctx.namespace,
    cluster: c
      ? {
          server: c.server,
          caData: c.caData ?? null,
          caFile: c.caFile ?? null,
          caFileContent: fileDigest(c.caFile),
          skip: c.skipTLSVerify,
          tlsServerName: c.tlsServerName ?? null,
          proxyUrl: c.proxyUrl ?? null,
        }
      : { missing: ctx.clusterName },
    user: u
      ? {
          certData: u.certData ?? null,
          certFile: u.certFile ?? null,
          certFileContent: fileDigest(u.certFile),
          keyData: u.keyData ?? null,
          keyFile: u.keyFile ?? null,
          keyFileContent: fileDigest(u.keyFile),
          token: u.token ?? null,
          username: u.username ?? null,
          password: u.password ?? null,
          as: u.impersonateUser ?? null,
          authProvider: u.authProvider ?? null,
          exec: ctx.user?.exec ?? null,
        }
      : { missing: ctx.userName },
  };
  return createHmac('sha256', KEY).update(JSON.stringify(material)).digest('hex');
}
