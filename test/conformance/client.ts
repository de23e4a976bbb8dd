// Conformance-suite HTTP client: reads a kubeconfig (or starts the sim) and talks plain node:https.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { parse } from 'yaml';
import type { RunningSim } from '../../sim/index.ts';
import { startSim } from '../../sim/index.ts';

export interface Target {
  server: string;
  ca?: string;
  token?: string;
  readonlyToken?: string;
  /** The in-process simulator when no external kubeconfig is given (sim-only checks use it). */
  sim?: RunningSim;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, unknown>;
}

type Kubeconfig = {
  'current-context'?: string;
  contexts?: { name: string; context: { cluster: string; user: string } }[];
  clusters?: { name: string; cluster: { server: string; 'certificate-authority-data'?: string } }[];
  users?: { name: string; user: { token?: string } }[];
};

function resolve(
  cfg: Kubeconfig,
  ctxName: string | undefined,
): { server: string; ca?: string; token?: string } {
  const name = ctxName ?? cfg['current-context'];
  const ctx = cfg.contexts?.find((c) => c.name === name)?.context;
  if (!ctx) throw new Error(`context ${String(name)} not found in kubeconfig`);
  const cluster = cfg.clusters?.find((c) => c.name === ctx.cluster)?.cluster;
  const user = cfg.users?.find((u) => u.name === ctx.user)?.user;
  if (!cluster) throw new Error(`cluster ${ctx.cluster} not found`);
  const caData = cluster['certificate-authority-data'];
  return {
    server: cluster.server,
    ca: caData ? Buffer.from(caData, 'base64').toString('utf8') : undefined,
    token: user?.token,
  };
}

export async function connect(): Promise<Target> {
  const file = process.env.GPU_FLEET_CONFORMANCE_KUBECONFIG;
  if (file) {
    const cfg = parse(readFileSync(file, 'utf8')) as Kubeconfig;
    const main = resolve(cfg, process.env.GPU_FLEET_CONFORMANCE_CONTEXT);
    const ro = process.env.GPU_FLEET_CONFORMANCE_READONLY_CONTEXT;
    return { ...main, readonlyToken: ro ? resolve(cfg, ro).token : undefined };
  }
  const sim = await startSim({ scenario: 'homelab', bookmarkIntervalMs: 1000, httpControls: true });
  const cfg = parse(sim.kubeconfigYaml()) as Kubeconfig;
  const main = resolve(cfg, 'sim-admin');
  return { ...main, readonlyToken: resolve(cfg, 'sim-readonly').token, sim };
}

export interface Opts {
  method?: string;
  body?: unknown;
  contentType?: string;
  accept?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

export function call(t: Target, path: string, o: Opts = {}): Promise<Reply> {
  const u = new URL(t.server + path);
  const body =
    o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
  const headers: Record<string, string> = {
    Accept: o.accept ?? 'application/json',
    'User-Agent': 'conformance/v1',
    ...o.headers,
  };
  const token = o.token === undefined ? t.token : o.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = o.contentType ?? 'application/json';
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: o.method ?? 'GET',
        ca: t.ca,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {}
          ok({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', fail);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export interface WatchEvent {
  type: string;
  object: Record<string, unknown>;
}

/** Opens a watch; returns the HTTP status and a promise of all events until the stream ends. */
export function watch(
  t: Target,
  path: string,
  onEvent?: (e: WatchEvent) => void,
): Promise<{ status: number; events: WatchEvent[]; stop(): void }> {
  const u = new URL(t.server + path);
  return new Promise((ok, fail) => {
    const events: WatchEvent[] = [];
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        ca: t.ca,
        headers: { Authorization: `Bearer ${t.token}`, Accept: 'application/json' },
      },
      (res) => {
        let buf = '';
        res.on('data', (c: Buffer) => {
          buf += c.toString('utf8');
          let i = buf.indexOf('\n');
          while (i >= 0) {
            const line = buf.slice(0, i);
            buf = buf.slice(i + 1);
            if (line.trim()) {
              const e = JSON.parse(line) as WatchEvent;
              events.push(e);
              onEvent?.(e);
            }
            i = buf.indexOf('\n');
          }
        });
        ok({ status: res.statusCode ?? 0, events, stop: () => req.destroy() });
      },
    );
    req.on('error', (e) => {
      if ((e as NodeJS.ErrnoException).code !== 'ECONNRESET') fail(e);
    });
    req.end();
  });
}

/** Waits until the response stream of a watch ended (by timeoutSeconds or server close). */
export function watchUntilEnd(t: Target, path: string): Promise<{ status: number; events: WatchEvent[] }> {
  const u = new URL(t.server + path);
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        ca: t.ca,
        headers: { Authorization: `Bearer ${t.token}` },
      },
      (res) => {
        let buf = '';
        res.on('data', (c: Buffer) => {
          buf += c.toString('utf8');
        });
        const done = () =>
          ok({
            status: res.statusCode ?? 0,
            events: buf
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l) as WatchEvent),
          });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('error', fail);
    req.end();
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(f: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** Reads a nested value: pick(obj, 'metadata', 'name'). */
export function pick(o: unknown, ...path: (string | number)[]): unknown {
  let cur: unknown = o;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}

export const uniq = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
