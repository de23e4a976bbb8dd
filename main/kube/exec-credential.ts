/**
 * Runs a kubeconfig exec credential plugin (client.authentication.k8s.io) ourselves rather than through
 * client-node: we need the widened PATH, a timeout, no stdin (a tray app has no terminal), the plugin's
 * own words on failure, and a cache that lasts until the credential expires or the server says 401.
 * The plugin's stderr is outside text that often carries secrets (`refresh_token=…`, `client_secret …`):
 * it is redacted and folded to one capped line before it becomes part of a message.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { Cluster } from '@kubernetes/client-node';
import { isObj } from '../../common/json-guards.ts';
import { shownText } from '../log/redact.ts';
import type { Clock } from './clock.ts';
import { KubeError } from './errors.ts';
import { findExecutable, pluginPath } from './exec-path.ts';
import type { ExecSpec } from './kubeconfig-types.ts';

export interface ExecCredential {
  token: string | null;
  clientCertificateData: string | null;
  clientKeyData: string | null;
  /** ms since the epoch; null: valid until the server rejects it. */
  expiresAt: number | null;
}

export interface ExecCredentialOptions {
  clock: Clock;
  timeoutMs?: number;
  cluster?: Cluster | null;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

const MAX_OUTPUT = 1 << 20;
/** Of stderr only a head is kept: it is shown as one line of at most CLUSTER_TEXT_MAX characters. */
const MAX_STDERR = 16 << 10;

/** What a failed plugin said: its first non-blank line, secrets redacted, control characters gone, capped. */
export function execStderr(stderr: string): string {
  const first = stderr.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return shownText(first);
}
/** After the plugin exits, how long its output may still take to arrive. */
const STDOUT_DRAIN_MS = 1_000;
/** Refresh a little before the stated expiry so a request never leaves with a token about to lapse. */
const EXPIRY_SKEW_MS = 10_000;

export class ExecCredentialSource {
  #cached: ExecCredential | null = null;
  #inFlight: Promise<ExecCredential> | null = null;
  readonly #name: string;

  constructor(
    private readonly spec: ExecSpec,
    private readonly opts: ExecCredentialOptions,
  ) {
    this.#name = path.basename(spec.command);
  }

  async get(): Promise<ExecCredential> {
    const c = this.#cached;
    if (c && (c.expiresAt === null || c.expiresAt - EXPIRY_SKEW_MS > this.opts.clock.now())) return c;
    this.#inFlight ??= this.#run().finally(() => {
      this.#inFlight = null;
    });
    const fresh = await this.#inFlight;
    this.#cached = fresh;
    return fresh;
  }

  /** The plugin's name while it runs (a request waiting on it then blames it, not the server), else null. */
  get running(): string | null {
    return this.#inFlight === null ? null : this.#name;
  }

  /** After a 401: the next get() runs the plugin again. */
  invalidate(): void {
    this.#cached = null;
  }

  #fail(message: string): KubeError {
    return new KubeError('exec-plugin', message);
  }

  #run(): Promise<ExecCredential> {
    const { spec, opts } = this;
    const env = opts.env ?? process.env;
    const searchPath = pluginPath(env, opts.home ?? os.homedir());
    if (spec.interactiveMode === 'Always') {
      return Promise.reject(
        this.#fail(
          `exec plugin "${this.#name}" needs a terminal (interactiveMode: Always); log in with kubectl first.`,
        ),
      );
    }
    const exe = findExecutable(spec.command, searchPath);
    if (!exe) {
      const hint = spec.installHint ? ` ${shownText(spec.installHint.split('\n')[0] ?? '')}` : '';
      return Promise.reject(
        this.#fail(
          `exec plugin "${spec.command}" was not found in PATH or the usual install folders.${hint}`,
        ),
      );
    }
    const childEnv: NodeJS.ProcessEnv = { ...env, PATH: searchPath, KUBERNETES_EXEC_INFO: this.#execInfo() };
    for (const { name, value } of spec.env) childEnv[name] = value;
    return new Promise((resolve, reject) => {
      // Its own process group (POSIX), so what the plugin started can be ended with it.
      const group = process.platform !== 'win32';
      const child = spawn(exe, spec.args, {
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
        detached: group,
      });
      let out = '';
      let err = '';
      let done = false;
      let exitCode: number | null = null;
      let drain: unknown = null;
      const killAll = () => {
        try {
          if (group && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          else child.kill('SIGKILL');
        } catch {
          // Already gone.
        }
      };
      const timer = opts.clock.setTimeout(() => {
        finish(
          this.#fail(
            `exec plugin "${this.#name}" did not answer within ${Math.round((opts.timeoutMs ?? 60_000) / 1000)} s.`,
          ),
        );
      }, opts.timeoutMs ?? 60_000);
      const finish = (e: KubeError | null, value?: ExecCredential) => {
        if (done) return;
        done = true;
        opts.clock.clearTimeout(timer);
        opts.clock.clearTimeout(drain);
        // Whatever the plugin left running (a helper holding its stdout) ends with it.
        killAll();
        if (e) reject(e);
        else if (value) resolve(value);
      };
      const settle = () => {
        if (exitCode !== 0) {
          const said = execStderr(err);
          finish(this.#fail(`exec plugin "${this.#name}" failed: ${said || `exit status ${exitCode}`}`));
          return;
        }
        try {
          finish(null, this.#parse(out));
        } catch (e) {
          finish(e instanceof KubeError ? e : this.#fail(String(e)));
        }
      };
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        if (out.length < MAX_OUTPUT) out += d;
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        if (err.length < MAX_STDERR) err += d;
      });
      child.on('error', (e) =>
        finish(this.#fail(`exec plugin "${this.#name}" could not be started (${e.message}).`)),
      );
      // The plugin is done when it exits; its output may still be in the pipe, so a short wait for the
      // pipes to close, never longer: a child it left behind may hold them open for ever.
      child.on('exit', (code) => {
        exitCode = code ?? -1;
        drain = opts.clock.setTimeout(settle, STDOUT_DRAIN_MS);
      });
      child.on('close', (code) => {
        exitCode ??= code ?? -1;
        settle();
      });
    });
  }

  #execInfo(): string {
    const c = this.spec.provideClusterInfo ? this.opts.cluster : null;
    const cluster = c
      ? {
          server: c.server,
          'certificate-authority-data': c.caData,
          'insecure-skip-tls-verify': c.skipTLSVerify,
          'tls-server-name': c.tlsServerName,
          'proxy-url': c.proxyUrl,
        }
      : undefined;
    return JSON.stringify({
      kind: 'ExecCredential',
      apiVersion: this.spec.apiVersion,
      spec: { interactive: false, ...(cluster ? { cluster } : {}) },
    });
  }

  #parse(stdout: string): ExecCredential {
    let o: unknown;
    try {
      o = JSON.parse(stdout);
    } catch {
      throw this.#fail(`exec plugin "${this.#name}" did not print an ExecCredential (not JSON).`);
    }
    const status = isObj(o) && isObj(o.status) ? o.status : null;
    const s = (k: string) =>
      status && typeof status[k] === 'string' && status[k] !== '' ? (status[k] as string) : null;
    const token = s('token');
    const cert = s('clientCertificateData');
    const key = s('clientKeyData');
    if (!token && !(cert && key)) {
      throw this.#fail(
        `exec plugin "${this.#name}" printed an ExecCredential with neither a token nor a client certificate.`,
      );
    }
    const exp = s('expirationTimestamp');
    const expiresAt = exp ? Date.parse(exp) : Number.NaN;
    return {
      token,
      clientCertificateData: cert,
      clientKeyData: key,
      expiresAt: Number.isFinite(expiresAt) ? expiresAt : null,
    };
  }
}
