// SimControl: the typed test/demo controls, and the same verbs over HTTP at POST /sim/control/<verb>.

import type { SimUser } from './auth.ts';
import type { Core, Partition } from './core.ts';
import { type DcgmControl, makeDcgmControl } from './dcgm-control.ts';
import { apiError } from './errors.ts';
import type { Ctx } from './http.ts';
import { readBody, sendJson } from './http.ts';
import { nowIso, obj } from './json.ts';
import { churnLargePods } from './scenarios/large-pods.ts';
import { readyCondition, taintsFor } from './scenarios/node.ts';
import type { LogEntry, SimServer } from './server.ts';
import type { Json, JsonObject, KObj, ResourceDef } from './types.ts';

export interface SimControl extends DcgmControl {
  setNodeReady(name: string, status: 'True' | 'False' | 'Unknown', reason?: string, message?: string): void;
  /**
   * A kubelet's periodic status report for each named node, as its PATCH nodes/NAME/status would land when
   * nothing changed: every condition's lastHeartbeatTime moves to now, nothing else. Returns how many.
   */
  reportNodeStatus(names: string[]): number;
  setNodeLabels(name: string, labels: Record<string, string | null>): void;
  setNodeAllocatable(name: string, resources: Record<string, string | null>): void;
  setNodeCapacity(name: string, resources: Record<string, string | null>): void;
  addNode(node: object): void;
  removeNode(name: string): void;
  listNodeNames(): string[];
  /**
   * large:N,pods=P,gpu=G: replaces the next `count` pods (deleted, then created again under a new name on
   * the same node with the same request). Returns how many of them requested a GPU.
   */
  churnPods(count: number): number;
  restart(): Promise<void>;
  compact(): void;
  stallWatches(stalled: boolean): void;
  /**
   * Half-open: every connection open now (watches, idle kept-alive ones) stops answering without closing;
   * new connections are answered as usual. Returns how many were frozen.
   */
  halfOpenConnections(): number;
  setLatency(ms: number): void;
  revokeToken(user: SimUser): void;
  failNext(count: number, status: number): void;
  requestLog(): LogEntry[];
  /**
   * Makes every request of one client fail until healed: `who` is a user name (e.g.
   * "system:serviceaccount:NS:NAME") or one ServiceAccount token (the token itself); `how` is 'reset'
   * (connection cut), '503', or 'timeout' (never answered). The client's open connections (its watches
   * too) are cut at once.
   */
  partition(who: string, how?: Partition): void;
  /** Undoes partition(who); held 'timeout' connections are cut. */
  heal(who: string): void;
  /** Moves the sim's clock forward (token expiry, TokenRequest timestamps, request log times). */
  advanceClock(ms: number): void;
  /** The sim's clock now (epoch ms). */
  now(): number;
  resetRequestLog(): void;
  /**
   * TLS connections open to the API server now, idle kept-alive ones included (over HTTP this counts the
   * connection asking too). Lets a test prove that a client left nothing open.
   */
  openConnections(): number;
  /** The simulator process's memory (after a full GC when started with --expose-gc), for soaks. */
  memoryUsage(): { heapUsed: number; rss: number };
}

function patchMap(base: Json | undefined, changes: Record<string, string | null>): JsonObject {
  const out: JsonObject = { ...obj(base) };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

export function makeControl(core: Core, server: () => SimServer, restart: () => Promise<void>): SimControl {
  const def = core.registry.find('', 'v1', 'nodes') as ResourceDef;
  const mustGet = (name: string): KObj => {
    const n = core.get(def, '', name);
    if (!n) throw new Error(`no node named ${name}`);
    return n;
  };
  const update = (name: string, f: (n: KObj) => KObj) => {
    const prev = mustGet(name);
    core.write(def, f(structuredClone(prev)), prev);
  };
  return {
    ...makeDcgmControl(core),
    setNodeReady: (name, status, reason, message) =>
      update(name, (n) => {
        const st = obj(n.status);
        const conds = (Array.isArray(st.conditions) ? st.conditions : []).filter(
          (c) => obj(c).type !== 'Ready',
        );
        n.status = { ...st, conditions: [...conds, readyCondition(status, nowIso(), reason, message)] };
        n.spec = { ...obj(n.spec), taints: taintsFor(status, obj(n.spec).unschedulable === true) };
        return n;
      }),
    reportNodeStatus: (names) => {
      if (!Array.isArray(names) || names.length > 10_000)
        throw new Error('reportNodeStatus needs up to 10,000 node names');
      const t = nowIso();
      for (const name of names)
        update(String(name), (n) => {
          const st = obj(n.status);
          const conds = Array.isArray(st.conditions) ? st.conditions : [];
          n.status = { ...st, conditions: conds.map((c) => ({ ...obj(c), lastHeartbeatTime: t })) };
          return n;
        });
      return names.length;
    },
    setNodeLabels: (name, labels) =>
      update(name, (n) => ({
        ...n,
        metadata: { ...n.metadata, labels: patchMap(n.metadata.labels, labels) },
      })),
    setNodeAllocatable: (name, r) =>
      update(name, (n) => ({
        ...n,
        status: { ...obj(n.status), allocatable: patchMap(obj(n.status).allocatable, r) },
      })),
    setNodeCapacity: (name, r) =>
      update(name, (n) => ({
        ...n,
        status: { ...obj(n.status), capacity: patchMap(obj(n.status).capacity, r) },
      })),
    addNode: (node) => {
      const n = structuredClone(node) as KObj;
      n.metadata = obj(n.metadata);
      const prev = core.get(def, '', String(n.metadata.name));
      core.write(def, n, prev);
    },
    removeNode: (name) => {
      core.remove(def, mustGet(name));
    },
    openConnections: () => server().openConnections,
    listNodeNames: () => core.store.list('/nodes').map((n) => String(n.metadata.name)),
    churnPods: (count) => churnLargePods(core, Math.max(0, Math.min(10_000, Math.floor(count)))),
    memoryUsage: () => {
      (globalThis as { gc?: () => void }).gc?.();
      const { heapUsed, rss } = process.memoryUsage();
      return { heapUsed, rss };
    },
    restart,
    compact: () => core.store.compact(),
    stallWatches: (stalled) => {
      core.stalled = stalled;
      if (!stalled) for (const f of core.onUnstall) f();
    },
    halfOpenConnections: () => server().freezeConnections(),
    setLatency: (ms) => {
      core.latencyMs = ms;
    },
    revokeToken: (user) => core.auth.revoke(user),
    failNext: (count, status) => {
      server().failures = { count, status };
    },
    requestLog: () => [...server().log],
    partition: (who, how = 'reset') => {
      if (!['reset', '503', 'timeout'].includes(how))
        throw new Error(`unknown partition kind ${String(how)}`);
      const key = core.saTokens.credentialOf(who) ?? who;
      core.partitions.set(key, how);
      server().cutClient(key);
    },
    heal: (who) => {
      const key = core.saTokens.credentialOf(who) ?? who;
      core.partitions.delete(key);
      server().releaseHeld(key);
    },
    advanceClock: (ms) => {
      if (!Number.isFinite(ms) || ms < 0) throw new Error('advanceClock needs a non-negative number of ms');
      core.clockOffsetMs += ms;
    },
    now: () => core.now(),
    resetRequestLog: () => {
      server().log.length = 0;
    },
  };
}

/** POST /sim/control/<verb> with a JSON array of arguments (or an object for single-argument verbs). */
export function controlHandler(control: () => SimControl): (ctx: Ctx) => Promise<void> {
  return async (ctx) => {
    const verb = ctx.path.slice('/sim/control/'.length) as keyof SimControl;
    const c = control();
    const fn = (Object.hasOwn(c, verb) ? c[verb] : undefined) as ((...a: unknown[]) => unknown) | undefined;
    if (ctx.method !== 'POST' || typeof fn !== 'function')
      throw apiError(404, `unknown control verb ${verb}`, 'NotFound', {});
    const raw = (await readBody(ctx)).toString('utf8').trim();
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    const args = Array.isArray(parsed) ? parsed : [parsed];
    if (verb === 'restart') {
      sendJson(ctx, 200, { result: null });
      ctx.res.on('finish', () => setTimeout(() => void c.restart(), 10));
      return;
    }
    // The answer goes out first: the control request's own connection is frozen too.
    if (verb === 'halfOpenConnections') {
      sendJson(ctx, 200, { result: null });
      ctx.res.on('finish', () => c.halfOpenConnections());
      return;
    }
    try {
      const result = await fn(...args);
      sendJson(ctx, 200, { result: (result ?? null) as Json });
    } catch (e) {
      throw apiError(400, (e as Error).message, 'BadRequest');
    }
  };
}
