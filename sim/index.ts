// Public entry of the Kubernetes API simulator: startSim() returns a running HTTPS API server and its controls.
import { chmod, writeFile } from 'node:fs/promises';
import { controlHandler, makeControl, type SimControl } from './control.ts';
import { Core } from './core.ts';
import { installCrdHooks } from './crd.ts';
import { kubeconfigYaml } from './kubeconfig.ts';
import type { SizeLimits } from './limits.ts';
import type { OidcIssuer } from './oidc.ts';
import { seed, startFlapping } from './scenarios/index.ts';
import { KUBE_APISERVER_TIMEOUTS, type ServerTimeouts, SimServer } from './server.ts';
import { makeTls } from './tls.ts';

export type { SimControl } from './control.ts';

export interface SimOptions {
  /** 'homelab' (default) | 'smalllab' (or 'smalllab:MS') | 'large:N' (or 'large:N,pods=P,gpu=G') | 'flapping' (or 'flapping:MS') | 'empty' */
  scenario?: string;
  port?: number;
  host?: string;
  /** How many past events are kept for watch replay before 410 Expired. */
  watchWindow?: number;
  bookmarkIntervalMs?: number;
  /** How long a new CRD takes to become Established; 0 (default): at once. */
  crdEstablishDelayMs?: number;
  /** Size limits (ConfigMap data, request body, etcd request); the real ones by default. */
  limits?: Partial<SizeLimits>;
  /** The sim's clock (epoch ms), e.g. a test's ManualClock; Date.now by default (advanceClock adds to it). */
  now?: () => number;
  /**
   * Serve the fault-injection controls over HTTP (POST /sim/control/<verb>, admin token) for a test or
   * bench in another process. Off by default: the demo the product starts has no such endpoint (a real
   * API server answers that path 404), and in-process callers use the typed `control` object instead.
   */
  httpControls?: boolean;
  /** How long the server waits on a client (headers, whole request, idle keep-alive); a kube-apiserver's by default. */
  timeouts?: Partial<ServerTimeouts>;
  /** Accept the ID tokens of this OIDC issuer, as a server started with --oidc-issuer-url (sim/oidc.ts). */
  oidc?: OidcIssuer;
  /**
   * Time each request waits before it is answered (ms; 0, the default: none): the round trip and
   * admission a real API server costs per request, which loopback lacks (a paged list pays it per page).
   */
  requestLatencyMs?: number;
}

export interface RunningSim {
  url: string;
  caPem: string;
  tokens: { admin: string; readonly: string; revocable: string; nodesonly: string };
  kubeconfigYaml(): string;
  writeKubeconfig(path: string): Promise<void>;
  control: SimControl;
  /**
   * Serves the same cluster on a second address (another port of `host`, 127.0.0.1 by default): the
   * same objects, users and CA, as a cluster reached through two addresses is. Returns its URL.
   */
  listenAlso(host?: string): Promise<string>;
  close(): Promise<void>;
}

function versionInfo(scenario: string): Record<string, string> {
  const minor = scenario.startsWith('large:') ? '33' : '32';
  const git = minor === '33' ? 'v1.33.13' : 'v1.32.5';
  return {
    major: '1',
    minor,
    emulationMajor: '1',
    emulationMinor: minor,
    minCompatibilityMajor: '1',
    minCompatibilityMinor: String(Number(minor) - 1),
    gitVersion: git,
    gitCommit: '2df3632e823a813f64218dfc6f5c2e70d28ecdf0',
    gitTreeState: 'clean',
    buildDate: '2025-05-15T08:00:00Z',
    goVersion: 'go1.24.4',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export async function startSim(options: SimOptions = {}): Promise<RunningSim> {
  const scenario = options.scenario ?? 'homelab';
  const host = options.host ?? '127.0.0.1';
  const latency = options.requestLatencyMs ?? 0;
  if (!(Number.isFinite(latency) && latency >= 0 && latency <= 10_000))
    throw new Error('sim: requestLatencyMs must be between 0 and 10000.');
  const core = new Core({
    watchWindow: options.watchWindow ?? 5000,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    version: versionInfo(scenario),
    ...(options.crdEstablishDelayMs !== undefined
      ? { crdEstablishDelayMs: options.crdEstablishDelayMs }
      : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.oidc ? { oidc: options.oidc } : {}),
  });
  // One latency for every request but the controls: the same one the latency control sets later.
  core.latencyMs = latency;
  installCrdHooks(core);
  seed(core, scenario);
  const tls = await makeTls();
  let control: SimControl | undefined;
  const handler = options.httpControls === true ? controlHandler(() => control as SimControl) : null;
  const timeouts = { ...KUBE_APISERVER_TIMEOUTS, ...options.timeouts };
  let server = new SimServer(core, tls, handler, timeouts);
  const port = await server.listen(options.port ?? 0, host);
  const restart = async () => {
    const failures = server.failures;
    const log = server.log;
    await server.close();
    server = new SimServer(core, tls, handler, timeouts);
    server.failures = failures;
    server.log.push(...log);
    await server.listen(port, host);
  };
  control = makeControl(core, () => server, restart);
  const stopFlapping = startFlapping(core, scenario);
  const url = `https://${host}:${port}`;
  const yaml = () => kubeconfigYaml(url, tls.caPem, core.auth.tokens);
  const others: SimServer[] = [];
  return {
    url,
    caPem: tls.caPem,
    tokens: { ...core.auth.tokens },
    kubeconfigYaml: yaml,
    async writeKubeconfig(path) {
      await writeFile(path, yaml(), { mode: 0o600 });
      await chmod(path, 0o600);
    },
    control,
    async listenAlso(otherHost = '127.0.0.1') {
      const other = new SimServer(core, tls, handler, timeouts);
      others.push(other);
      const otherPort = await other.listen(0, otherHost);
      return `https://${otherHost.includes(':') ? `[${otherHost}]` : otherHost}:${otherPort}`;
    },
    async close() {
      stopFlapping();
      for (const other of others.splice(0)) await other.close();
      await server.close();
    },
  };
}
