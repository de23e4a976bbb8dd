/** Runs a FleetEngine until every context has its first inventory (and, optionally, a live watch). */
import type { EngineEvent, EngineOptions } from '../../main/fleet/engine.ts';
import { FleetEngine } from '../../main/fleet/engine.ts';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';
import { WritebackHub, type WritebackSettings } from '../../main/writeback/hub.ts';
import {
  DEFAULT_CONFIGMAP_NAMESPACE,
  DEFAULT_CRD_GROUP,
  type WriteEvent,
} from '../../main/writeback/index.ts';

export interface Synced {
  engine: FleetEngine;
  /** ms from setContexts() to the last context's first inventory. */
  ms: number;
}

const LIMIT_MS = 180_000;

/** Resolves when `done` holds after some event; rejects (naming `what`) after a generous safety limit. */
export function untilEvent(
  engine: FleetEngine,
  done: (e: EngineEvent) => boolean,
  what: string,
  limitMs = LIMIT_MS,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`bench: timed out waiting for ${what}`));
    }, limitMs);
    const off = engine.on((e) => {
      if (!done(e)) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

export async function syncEngine(
  contexts: ResolvedContext[],
  opts: EngineOptions = {},
  waitLive = false,
): Promise<Synced> {
  const engine = new FleetEngine(opts);
  const pending = new Set(contexts.map((c) => c.name));
  const live = new Set(contexts.map((c) => c.name));
  let ms = 0;
  const t0 = performance.now();
  const done = untilEvent(
    engine,
    (e) => {
      if (e.type === 'inventory' && pending.delete(e.context) && pending.size === 0)
        ms = performance.now() - t0;
      if (e.type === 'connection' && e.state.phase === 'live') live.delete(e.context);
      return pending.size === 0 && (!waitLive || live.size === 0);
    },
    'the first inventory of every context',
  );
  engine.setContexts(contexts);
  await done;
  return { engine, ms };
}

/** An engine with write-back on one context, as `watch --write-back` (or the controller) runs it. */
export interface Writer {
  engine: FleetEngine;
  hub: WritebackHub;
  /** Every write event, in order. */
  writes: WriteEvent[];
  /** True while a write is in flight (for `settled`). */
  writing: () => boolean;
  stop(): void;
}

/** Starts the writer and resolves once its node watch is live. */
export async function startWriter(
  ctx: ResolvedContext,
  watcher: EngineOptions['watcher'],
  settings: Omit<WritebackSettings, 'group' | 'configMapNamespace'>,
): Promise<Writer> {
  const engine = new FleetEngine(watcher ? { watcher } : {});
  const writes: WriteEvent[] = [];
  const hub = new WritebackHub(engine, {}, (e) => writes.push(e));
  const live = untilEvent(engine, (e) => e.type === 'connection' && e.state.phase === 'live', 'live');
  engine.setContexts([ctx]);
  hub.set([ctx], () => ({
    group: DEFAULT_CRD_GROUP,
    configMapNamespace: DEFAULT_CONFIGMAP_NAMESPACE,
    ...settings,
  }));
  await live;
  return {
    engine,
    hub,
    writes,
    writing: () => engine.snapshot().contexts[0]?.writeback.phase === 'writing',
    stop() {
      hub.stop();
      engine.stop();
    },
  };
}
