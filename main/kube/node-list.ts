/**
 * LIST /api/v1/nodes in pages (limit + continue), trimming each item as its page arrives so only
 * NodeFacts are held. When a continue token expires (410) the list starts over: pages of one list are one
 * consistent snapshot, and mixing two snapshots could lose or duplicate nodes.
 */
import type { NodeFacts } from '../inventory/node-facts.ts';
import type { ContextClient } from './context-client.ts';
import { KubeError } from './errors.ts';
import { isObj } from './kubeconfig-entries.ts';

export interface NodeListResult {
  nodes: NodeFacts[];
  resourceVersion: string;
  pages: number;
}

const MAX_RESTARTS = 3;

export async function listNodes(
  client: ContextClient,
  trim: (raw: unknown) => NodeFacts | null,
  pageSize: number,
  timeoutMs: number,
  isCancelled: () => boolean,
): Promise<NodeListResult | null> {
  let restarts = 0;
  let nodes: NodeFacts[] = [];
  let cont: string | null = null;
  let pages = 0;
  for (;;) {
    const q = new URLSearchParams({ limit: String(pageSize) });
    if (cont) q.set('continue', cont);
    let page: unknown;
    try {
      page = await client.getJson(`/api/v1/nodes?${q}`, 'listing nodes', timeoutMs);
    } catch (err) {
      if (err instanceof KubeError && err.kind === 'expired' && cont && restarts < MAX_RESTARTS) {
        restarts++;
        nodes = [];
        cont = null;
        continue;
      }
      throw err;
    }
    if (isCancelled()) return null;
    pages++;
    const { items, resourceVersion, next } = readPage(page, client.server);
    for (const raw of items) {
      const facts = trim(raw);
      if (facts) nodes.push(facts);
    }
    if (!next) return { nodes, resourceVersion, pages };
    cont = next;
  }
}

function readPage(
  page: unknown,
  server: string,
): { items: unknown[]; resourceVersion: string; next: string | null } {
  const meta = isObj(page) ? page.metadata : null;
  const items = isObj(page) ? page.items : null;
  const rv = isObj(meta) ? meta.resourceVersion : null;
  if (!Array.isArray(items) && items !== null) throw notANodeList(server);
  if (typeof rv !== 'string' || rv === '') throw notANodeList(server);
  const next =
    isObj(meta) && typeof meta.continue === 'string' && meta.continue !== '' ? meta.continue : null;
  return { items: items ?? [], resourceVersion: rv, next };
}

function notANodeList(server: string): KubeError {
  return new KubeError(
    'protocol',
    `${new URL(server).host} did not answer the node list like a Kubernetes API server.`,
  );
}
