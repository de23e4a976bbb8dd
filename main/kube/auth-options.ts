/**
 * The TLS and auth settings of one context for node:https, built fresh for each request so refreshed
 * credentials (exec plugins, token files) are always current. Certificates, tokens, token files and
 * basic auth are ours (auth-local.ts), exec plugins too (exec-credential.ts); client-node is loaded only
 * for OIDC, the cloud auth providers and proxies. Its OIDC sends a valid id-token but cannot refresh an
 * expired one (2.0.1; auth-options.test.ts).
 */
import type https from 'node:https';
import type { Cluster, KubeConfig, User } from '@kubernetes/client-node';
import { LocalAuthSource, needsClientNode } from './auth-local.ts';
import type { Clock } from './clock.ts';
import { KubeError } from './errors.ts';
import { ExecCredentialSource } from './exec-credential.ts';
import type { ResolvedContext } from './kubeconfig-types.ts';

export interface AuthOptions {
  ca?: https.RequestOptions['ca'];
  cert?: https.RequestOptions['cert'];
  key?: https.RequestOptions['key'];
  rejectUnauthorized?: boolean;
  servername?: string;
  headers: Record<string, string>;
  /** Set only when the cluster uses a proxy-url (client-node builds the proxy agent). */
  agent?: https.Agent;
}

/**
 * The auth providers client-node implements (kubectl itself has only oidc left; gcp and azure became
 * exec plugins), and our own name for a `token-file` user (kubeconfig-entries.ts).
 */
const AUTH_PROVIDERS: ReadonlySet<string> = new Set(['oidc', 'gcp', 'azure', 'tokenFile']);

/** kubectl's words for an auth provider it does not know (client-go rest/plugin.go), as a config error. */
function unknownAuthProvider(ctx: ResolvedContext): KubeError | null {
  const provider: unknown = ctx.user?.user.authProvider;
  if (provider === undefined || provider === null) return null;
  const name =
    typeof provider === 'object' && 'name' in provider && typeof provider.name === 'string'
      ? provider.name
      : '';
  if (AUTH_PROVIDERS.has(name)) return null;
  return new KubeError(
    'config',
    `Context "${ctx.name}" cannot be used: no Auth Provider found for name "${name}" (user "${ctx.userName ?? ''}"); ` +
      'use an exec credential plugin instead.',
  );
}

export class ContextAuth {
  readonly #exec: ExecCredentialSource | null;
  readonly #cluster: Cluster;
  readonly #user: User;
  readonly #contextName: string;
  readonly #local: LocalAuthSource | null;
  #kc: KubeConfig | null = null;

  constructor(ctx: ResolvedContext, clock: Clock, execTimeoutMs?: number) {
    if (!ctx.cluster) {
      throw new KubeError(
        'config',
        `Context "${ctx.name}" names cluster "${ctx.clusterName}", which no kubeconfig file defines.`,
      );
    }
    if (ctx.userName !== null && !ctx.user) {
      throw new KubeError(
        'config',
        `Context "${ctx.name}" names user "${ctx.userName}", which no kubeconfig file defines.`,
      );
    }
    // Silently sending the requests without credentials would be worse than refusing (kubectl refuses too).
    const provider = unknownAuthProvider(ctx);
    if (provider) throw provider;
    this.#cluster = ctx.cluster.cluster;
    this.#user = ctx.user?.user ?? { name: 'anonymous' };
    this.#contextName = ctx.name;
    this.#local = needsClientNode(this.#cluster, this.#user)
      ? null
      : new LocalAuthSource(this.#cluster, this.#user, clock);
    const spec = ctx.user?.exec ?? null;
    this.#exec = spec
      ? new ExecCredentialSource(spec, { clock, cluster: this.#cluster, timeoutMs: execTimeoutMs })
      : null;
  }

  get server(): string {
    return this.#cluster.server;
  }

  /** The cluster's proxy-url, if it has one. */
  get proxyUrl(): string | null {
    return this.#cluster.proxyUrl ?? null;
  }

  /** The credentials were rejected (401): make the next request fetch fresh ones. */
  invalidate(): void {
    this.#exec?.invalidate();
    this.#local?.invalidate();
  }

  /** OIDC, auth providers and proxies: client-node's implementation, imported on first use. */
  async #viaClientNode(): Promise<AuthOptions> {
    if (!this.#kc) {
      const { KubeConfig } = await import('@kubernetes/client-node');
      // client-node refuses http:// servers when building its agent; we only borrow its TLS/auth settings,
      // so it is shown an https:// address (kubectl proxy on http://127.0.0.1:8001 stays usable).
      const shown: Cluster = { ...this.#cluster, server: this.#cluster.server.replace(/^http:/, 'https:') };
      const kc = new KubeConfig();
      kc.loadFromOptions({
        clusters: [shown],
        users: [this.#user],
        contexts: [{ name: this.#contextName, cluster: shown.name, user: this.#user.name }],
        currentContext: this.#contextName,
      });
      this.#kc = kc;
    }
    const o: https.RequestOptions = { headers: {} };
    try {
      await this.#kc.applyToHTTPSOptions(o);
    } catch (err) {
      throw describeAuthFailure(err);
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    if (o.auth) headers.Authorization = `Basic ${Buffer.from(o.auth).toString('base64')}`;
    const out: AuthOptions = { ca: o.ca, cert: o.cert, key: o.key, servername: o.servername, headers };
    if (this.#cluster.proxyUrl && o.agent instanceof Object) out.agent = o.agent as https.Agent;
    return out;
  }

  /** The exec plugin a request is waiting on now, or null. */
  get waitingOnPlugin(): string | null {
    return this.#exec?.running ?? null;
  }

  async options(): Promise<AuthOptions> {
    const out: AuthOptions = this.#local ? this.#local.options() : await this.#viaClientNode();
    if (this.#cluster.skipTLSVerify) out.rejectUnauthorized = false;
    if (this.#exec) {
      const cred = await this.#exec.get();
      if (cred.token) out.headers.Authorization = `Bearer ${cred.token}`;
      if (cred.clientCertificateData && cred.clientKeyData) {
        out.cert = cred.clientCertificateData;
        out.key = cred.clientKeyData;
      }
    }
    return out;
  }
}

function describeAuthFailure(err: unknown): KubeError {
  if (err instanceof KubeError) return err;
  const e = err as { code?: unknown; path?: unknown; message?: unknown };
  if (typeof e.path === 'string' && typeof e.code === 'string') {
    return new KubeError('config', `The kubeconfig refers to ${e.path}, which cannot be read (${e.code}).`, {
      code: e.code,
    });
  }
  const text = typeof e.message === 'string' ? e.message.split('\n')[0] : String(err);
  return new KubeError('unauthorized', `The credentials could not be refreshed: ${text}`);
}
