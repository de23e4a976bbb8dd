/**
 * TLS and auth settings for the common kubeconfig shapes (CA, client certificates, tokens, token
 * files, basic auth, impersonation) without @kubernetes/client-node: importing that library costs
 * 0.6–3.6 s of start-up, by load (Node 24.21 on 2 shared cores, `performance.now()` around
 * `await import('@kubernetes/client-node')` in `node -e`, five runs a batch: 0.64–0.91 s at load average
 * ~5 on 2026-12-03; 1.37–2.04 s and 1.46–3.60 s at ~15 on 2026-12-04), which a one-shot `gpu-fleet scan`
 * should not pay.
 * OIDC, cloud auth providers and proxies still go through client-node (auth-options.ts), loaded only when
 * a context needs them.
 */
import type { Cluster, User } from '@kubernetes/client-node';
import { readBoundedFile } from '../settings/bounded-file.ts';
import type { Clock } from './clock.ts';
import { KubeError } from './errors.ts';
import { KUBECONFIG_MAX_BYTES } from './kubeconfig-file.ts';

export interface LocalAuth {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  servername?: string;
  headers: Record<string, string>;
}

const TOKEN_FILE_TTL_MS = 60_000;

/** True when the kubeconfig uses something only client-node implements. */
export function needsClientNode(cluster: Cluster, user: User): boolean {
  const provider = user.authProvider as { name?: unknown } | undefined;
  return Boolean(cluster.proxyUrl) || (provider !== undefined && provider.name !== 'tokenFile');
}

/** Certificates, keys and tokens a kubeconfig names: read as the kubeconfig itself is (regular, capped). */
function readFile(file: string): Buffer {
  const read = readBoundedFile(file, KUBECONFIG_MAX_BYTES);
  if (read.ok) return read.bytes;
  const code = /\((E[A-Z]+)\)$/.exec(read.why)?.[1] ?? read.reason;
  throw new KubeError('config', `The kubeconfig refers to ${file}, which ${read.why}.`, { code });
}

const data = (base64: string | undefined, file: string | undefined): Buffer | undefined =>
  base64 ? Buffer.from(base64, 'base64') : file ? readFile(file) : undefined;

export class LocalAuthSource {
  #tokenFromFile: { value: string; readAt: number } | null = null;

  constructor(
    private readonly cluster: Cluster,
    private readonly user: User,
    private readonly clock: Clock,
  ) {}

  options(): LocalAuth {
    const { cluster, user } = this;
    const headers: Record<string, string> = {};
    const token = user.token ?? this.#fileToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    else if (user.username && user.password) {
      headers.Authorization = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
    }
    if (user.impersonateUser) headers['Impersonate-User'] = user.impersonateUser;
    const out: LocalAuth = { headers };
    const ca = data(cluster.caData, cluster.caFile);
    const cert = data(user.certData, user.certFile);
    const key = data(user.keyData, user.keyFile);
    if (ca) out.ca = ca;
    if (cert) out.cert = cert;
    if (key) out.key = key;
    if (cluster.tlsServerName) out.servername = cluster.tlsServerName;
    return out;
  }

  /** The server rejected the credentials (401): the next request reads the token file again. */
  invalidate(): void {
    this.#tokenFromFile = null;
  }

  /**
   * A token file is re-read every minute (as client-go does), and at once after a 401, so a rotated
   * projected service-account token keeps working.
   */
  #fileToken(): string | undefined {
    const provider = this.user.authProvider as { name?: string; config?: { tokenFile?: string } } | undefined;
    const file = provider?.name === 'tokenFile' ? provider.config?.tokenFile : undefined;
    if (!file) return undefined;
    const now = this.clock.now();
    if (!this.#tokenFromFile || now - this.#tokenFromFile.readAt > TOKEN_FILE_TTL_MS) {
      this.#tokenFromFile = { value: readFile(file).toString('utf8').trim(), readAt: now };
    }
    return this.#tokenFromFile.value;
  }
}
