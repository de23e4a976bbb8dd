/**
 * Baseline process for rows 6f/6g: the least any tool must pay to list every node: plain `https` GETs of
 * /api/v1/nodes in pages of 500 (limit + continue, one kept-alive connection), each body `JSON.parse`d
 * whole and its items kept. Reads the sim-admin context of the kubeconfig (token and CA data, as the
 * simulator writes them), prints the count, exits.
 */
import fs from 'node:fs';
import https from 'node:https';
import { parse } from 'yaml';

interface Kubeconfig {
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { token: string } }[];
  contexts: { name: string; context: { cluster: string; user: string } }[];
}

const kc = parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as Kubeconfig;
const ctx = kc.contexts.find((c) => c.name === 'sim-admin')?.context;
const cluster = kc.clusters.find((c) => c.name === ctx?.cluster)?.cluster;
const token = kc.users.find((u) => u.name === ctx?.user)?.user.token;
if (!cluster || !token) throw new Error('no sim-admin context');
const agent = new https.Agent({
  keepAlive: true,
  ca: Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8'),
});

function get(path: string): Promise<{ items: unknown[]; metadata?: { continue?: string } }> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      new URL(path, cluster?.server),
      { agent, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
          resolve(JSON.parse(Buffer.concat(parts).toString('utf8')));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

const nodes: unknown[] = [];
let cont: string | undefined;
do {
  const q = new URLSearchParams({ limit: '500', ...(cont ? { continue: cont } : {}) });
  const page = await get(`/api/v1/nodes?${q}`);
  nodes.push(...page.items);
  cont = page.metadata?.continue || undefined;
} while (cont);
process.stdout.write(`${nodes.length}\n`);
agent.destroy();
