/**
 * The parent's side of sim-host.ts: spawns the simulators in a child process and drives them through the
 * simulator's own HTTP control verbs (POST /sim/control/<verb>, admin token, loopback only).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { findContext, loadKubeconfig } from '../../main/kube/kubeconfig.ts';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';
import type { LogEntry } from '../../sim/server.ts';
import type { HostedSim, SimHostArgs } from './sim-host.ts';

/** The simulator's own request-log entry type (sim/server.ts), as the control endpoint returns it. */
export type { LogEntry };

export class RemoteSim {
  readonly #agent: https.Agent;
  constructor(readonly info: HostedSim) {
    this.#agent = new https.Agent({ keepAlive: true, ca: info.caPem });
  }

  get url(): string {
    return this.info.url;
  }
  get kubeconfigPath(): string {
    return this.info.kubeconfigPath;
  }

  /** A context of this sim's kubeconfig (sim-admin, sim-readonly, sim-revocable), renamed for the engine. */
  context(user = 'sim-admin', rename?: string): ResolvedContext {
    const load = loadKubeconfig({ explicitPath: this.info.kubeconfigPath });
    if (load.kind !== 'loaded') throw new Error(load.message);
    const ctx = findContext(load, user);
    if (!ctx) throw new Error(`no context ${user}`);
    return rename ? { ...ctx, name: rename } : ctx;
  }

  control(verb: string, ...args: unknown[]): Promise<unknown> {
    const body = JSON.stringify(args);
    const url = new URL(`/sim/control/${verb}`, this.info.url);
    return new Promise((resolve, reject) => {
      const req = https.request(
        url,
        {
          method: 'POST',
          agent: this.#agent,
          headers: {
            Authorization: `Bearer ${this.info.adminToken}`,
            'Content-Type': 'application/json',
            'Content-Length': String(Buffer.byteLength(body)),
          },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => {
            const text = Buffer.concat(parts).toString('utf8');
            if (res.statusCode !== 200) return reject(new Error(`sim control ${verb}: ${text}`));
            resolve((JSON.parse(text) as { result: unknown }).result);
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  async requestLog(): Promise<LogEntry[]> {
    return (await this.control('requestLog')) as LogEntry[];
  }

  close(): void {
    this.#agent.destroy();
  }
}

export interface SimHost {
  sims: RemoteSim[];
  dir: string;
  close(): Promise<void>;
}

const HOST_ENTRY = path.join(path.dirname(new URL(import.meta.url).pathname), 'sim-host.ts');

export async function startSimHost(opts: Omit<SimHostArgs, 'dir'>): Promise<SimHost> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-bench-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', HOST_ENTRY, JSON.stringify({ ...opts, dir })],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    rl.once('line', (l) => {
      rl.close();
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`the simulator host exited (${code})`)));
  });
  const { sims } = JSON.parse(line) as { sims: HostedSim[] };
  const remotes = sims.map((s) => new RemoteSim(s));
  return {
    sims: remotes,
    dir,
    close: async () => {
      for (const r of remotes) r.close();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.stdin?.end();
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
