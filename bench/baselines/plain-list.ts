/**
 * Baselines built on client-node, the library any TypeScript tool would reach for: a plain paged LIST of
 * all nodes (what any tool must at least pay) and client-node's informer (whole Node objects cached).
 */
import {
  CoreV1Api,
  KubeConfig,
  type KubernetesObject,
  makeInformer,
  type V1Node,
} from '@kubernetes/client-node';

export function kubeConfigFor(kubeconfigPath: string, context = 'sim-admin'): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  kc.setCurrentContext(context);
  return kc;
}

/** Lists every node in pages of `limit`, deserialized as client-node does; returns the nodes. */
export async function plainList(kc: KubeConfig, limit = 500): Promise<V1Node[]> {
  const api = kc.makeApiClient(CoreV1Api);
  const out: V1Node[] = [];
  let cont: string | undefined;
  do {
    const page = await api.listNode({ limit, ...(cont ? { _continue: cont } : {}) });
    out.push(...page.items);
    cont = page.metadata?._continue || undefined;
  } while (cont);
  return out;
}

export interface RunningInformer {
  size(): number;
  stop(): Promise<void>;
  /** The informer itself (what caches the Nodes). */
  readonly held: object;
}

/** client-node's informer on /api/v1/nodes; start() resolves once the list is cached and the watch opened. */
export async function startInformer(kc: KubeConfig): Promise<RunningInformer> {
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer<KubernetesObject>(kc, '/api/v1/nodes', () => api.listNode());
  await informer.start();
  if (informer.list().length === 0) throw new Error('the informer cached no nodes');
  return { size: () => informer.list().length, stop: () => informer.stop(), held: informer };
}
