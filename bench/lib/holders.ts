/**
 * Things that hold a cluster's nodes in memory, started and resolved once they do: our whole engine, our
 * watcher + node cache alone, and client-node's informer (whole Node objects).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { EngineOptions } from '../../main/fleet/engine.ts';
import { NODES, watchContextNodes } from '../../main/fleet/node-watch.ts';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';
import { ObjectCache } from '../../main/kube/object-cache.ts';
import { startInformer } from '../baselines/plain-list.ts';
import { syncEngine } from './engine-sync.ts';

export interface Holder {
  stop(): void;
  /** The object that keeps the nodes (engine, cache, informer): the heap probe checks stop() let it go. */
  readonly held: object;
}

export async function engineHolder(
  contexts: ResolvedContext[],
  waitLive: boolean,
  opts: EngineOptions = {},
): Promise<Holder> {
  const { engine } = await syncEngine(contexts, opts, waitLive);
  return { stop: () => engine.stop(), held: engine };
}

export function watcherHolder(ctx: ResolvedContext): Promise<Holder> {
  return new Promise((resolve, reject) => {
    const cache = new ObjectCache(NODES);
    const timer = setTimeout(() => reject(new Error('bench: the watcher never went live')), 180_000);
    const w = watchContextNodes(ctx, (e) => {
      if (e.type !== 'connection' && e.type !== 'refused') cache.apply(e);
      else if (e.type === 'connection' && e.state.phase === 'live') {
        clearTimeout(timer);
        resolve({ stop: () => w.stop(), held: cache });
      }
    });
    w.start();
  });
}

export async function informerHolder(kc: KubeConfig): Promise<Holder> {
  const informer = await startInformer(kc);
  return { stop: () => void informer.stop(), held: informer.held };
}
