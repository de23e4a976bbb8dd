/**
 * The cheapest honest way to read a cluster's nodes and live pods: plain `node:https` and JSON.parse,
 * pages of 500 with limit/continue, every item kept (what a plain tool that lists must at least pay).
 * The same-run baseline of row 12 (free GPUs at 100,000 pods). Only a bearer token and a CA are read from
 * the kubeconfig: the simulator's contexts need no more.
 */
import fs from 'node:fs';
import https from 'node:https';
import { parse } from 'yaml';

export interface RawTarget {
  server: string;
  ca: string;
  token: string;
}

interface Kubeconfig {
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { token: string } }[];
  contexts: { name: string; context: { cluster: string; user: string } }[];
}

/** Every context of a kubeconfig (or only `context`), as the server, CA and token it names. */
export function rawTargets(file: string, context?: string): RawTarget[] {
  const kc = parse(fs.readFileSync(file, 'utf8')) as Kubeconfig;
  return kc.contexts
    .filter((c) => context === undefined || c.name === context)
    .map((c) => {
      const cluster = kc.clusters.find((x) => x.name === c.context.cluster)?.cluster;
      const user = kc.users.find((x) => x.name === c.context.user)?.user;
      if (!cluster || !user) throw new Error(`context ${c.name} is incomplete`);
      const ca = Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
      return { server: cluster.server, ca, token: user.token };
    });
}

function getJson(agent: https.Agent, t: RawTarget, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      new URL(path, t.server),
      { agent, headers: { Authorization: `Bearer ${t.token}`, Accept: 'application/json' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${path}: HTTP ${res.statusCode}`));
          resolve(JSON.parse(Buffer.concat(parts).toString('utf8')));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

/** Lists one collection in pages of `limit`; resolves with every item. */
export async function rawPagedList(t: RawTarget, path: string, limit = 500): Promise<unknown[]> {
  const agent = new https.Agent({ keepAlive: true, ca: t.ca });
  const out: unknown[] = [];
  try {
    let cont = '';
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page = (await getJson(
        agent,
        t,
        `${path}${sep}limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
      )) as { items: unknown[]; metadata?: { continue?: string } };
      for (const item of page.items) out.push(item);
      cont = page.metadata?.continue ?? '';
    } while (cont);
  } finally {
    agent.destroy();
  }
  return out;
}

export const LIVE_PODS = `/api/v1/pods?fieldSelector=${encodeURIComponent('status.phase!=Succeeded,status.phase!=Failed')}`;

/** The nodes and the live pods of one cluster, both lists at once. */
export async function rawNodesAndPods(t: RawTarget): Promise<{ nodes: unknown[]; pods: unknown[] }> {
  const [nodes, pods] = await Promise.all([rawPagedList(t, '/api/v1/nodes'), rawPagedList(t, LIVE_PODS)]);
  return { nodes, pods };
}
