/** Runs a FleetEngine until every context has its first inventory (and, optionally, a live watch). */
import type { EngineEvent, EngineOptions } from '../../main/fleet/engine.ts';
import { FleetEngine } from '../../main/fleet/engine.ts';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';

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
