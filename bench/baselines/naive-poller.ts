/**
 * The naive operator loop of row 2's baseline: every pass it lists all nodes with client-node (pages of
 * 500) and server-side-applies a freshly stamped GpuInventory status, changed or not. Also installs the
 * CRD it writes to (from our generated CRD, the same one write-back uses).
 */
import https from 'node:https';
import type { KubeConfig, V1Node } from '@kubernetes/client-node';
import { buildCrd, CRD_KIND, CRD_PLURAL, DEFAULT_CRD_GROUP } from '../../main/writeback/crd.ts';
import { plainList } from './plain-list.ts';

interface Answer {
  status: number;
  body: string;
}

async function call(kc: KubeConfig, method: string, path: string, body?: unknown, type = 'application/json') {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('no current cluster');
  const opts: https.RequestOptions = { method, headers: {} };
  await kc.applyToHTTPSOptions(opts);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<Answer>((resolve, reject) => {
    const req = https.request(
      new URL(path, cluster.server),
      {
        ...opts,
        headers: {
          ...opts.headers,
          Accept: 'application/json',
          ...(text === undefined ? {} : { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text) }),
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const base = `/apis/${DEFAULT_CRD_GROUP}/v1/${CRD_PLURAL}`;
const APPLY = 'application/apply-patch+yaml';

/** Installs the GpuInventory CRD (if missing) and its `cluster` object; waits until it is served. */
export async function ensureInventoryObject(kc: KubeConfig): Promise<void> {
  await call(kc, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', buildCrd());
  const object = { apiVersion: `${DEFAULT_CRD_GROUP}/v1`, kind: CRD_KIND, metadata: { name: 'cluster' } };
  for (let i = 0; i < 200; i++) {
    const r = await call(kc, 'PATCH', `${base}/cluster?fieldManager=bench-setup`, object, APPLY);
    if (r.status === 200 || r.status === 201) return;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('the GpuInventory CRD never became usable');
}

const label = (n: V1Node, key: string) => n.metadata?.labels?.[key] ?? null;

/** What a naive operator derives: GPU nodes by label, readiness, the six fields; no memory of anything. */
function naiveStatus(nodes: V1Node[]) {
  const gpu = nodes.filter((n) => label(n, 'nvidia.com/gpu.present') === 'true');
  const entries = gpu.map((n) => ({
    name: n.metadata?.name ?? '',
    ready: n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
    product: label(n, 'nvidia.com/gpu.product'),
    count: Number(label(n, 'nvidia.com/gpu.count') ?? 0) || 0,
    memory: Number(label(n, 'nvidia.com/gpu.memory') ?? 0) || null,
    workload: label(n, 'nvidia.com/gpu.workload.config'),
  }));
  return {
    observed_at: new Date().toISOString(),
    total_gpu_nodes: entries.length,
    ready_gpu_nodes: entries.filter((e) => e.ready).length,
    total_gpus: entries.reduce((s, e) => s + e.count, 0),
    nodes: entries,
  };
}

/** One pass of the naive loop: list everything, write the status with a new timestamp. */
export async function naivePass(kc: KubeConfig): Promise<void> {
  const nodes = await plainList(kc);
  const body = {
    apiVersion: `${DEFAULT_CRD_GROUP}/v1`,
    kind: CRD_KIND,
    metadata: { name: 'cluster' },
    status: naiveStatus(nodes),
  };
  const r = await call(
    kc,
    'PATCH',
    `${base}/cluster/status?fieldManager=naive-operator&force=true`,
    body,
    APPLY,
  );
  if (r.status !== 200) throw new Error(`naive status write: ${r.status} ${r.body.slice(0, 200)}`);
}
