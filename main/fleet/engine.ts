/**
 * The engine facade: monitors the chosen contexts, keeps their inventories and histories, runs the
 * alert policy on a clock, and emits typed events. No Electron in here: the desktop shell, the CLI,
 * browser mode (and one day an in-cluster controller) host the same engine.
 */

import { type AlertRules, DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import type { SnoozeUntil } from '../../common/alerts.ts';
import { clusterText } from '../../common/cluster-text.ts';
import type { ConnectionState } from '../../common/connection.ts';
import { own } from '../../common/dict.ts';
import type { FleetSnapshot, HistoryPoint, WritebackState } from '../../common/fleet.ts';
import { fleetHealth } from '../../common/health.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { productlessNodes } from '../../common/inventory-counts.ts';
import type { NodeDetail } from '../../common/node-detail.ts';
import { DEFAULT_TELEMETRY, type TelemetrySettingsView } from '../../common/telemetry.ts';
import { flappingNodes } from '../alerts/flap.ts';
import { evaluate, evaluateFree, forgetContext, tick } from '../alerts/policy.ts';
import { countsAsReachable } from '../alerts/reachability.ts';
import {
  NO_SNOOZE,
  type OffsetMinutes,
  pausedUntil,
  pruneSnooze,
  resume,
  type SnoozeState,
  snooze,
  systemOffset,
} from '../alerts/snooze.ts';
import { INITIAL_POLICY_STATE, type PolicyAlert, type PolicyState } from '../alerts/types.ts';
import { fetchNodeDetail } from '../diagnosis/detail.ts';
import { unknownFree } from '../inventory/free-gpus.ts';
import { type Clock, systemClock } from '../kube/clock.ts';
import { groupByCluster } from '../kube/cluster-identity.ts';
import { ContextClient } from '../kube/context-client.ts';
import { KubeError } from '../kube/errors.ts';
import { contextFingerprint } from '../kube/fingerprint.ts';
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';
import type { ListWatcherOptions } from '../kube/list-watcher.ts';
import { shownText } from '../log/redact.ts';
import type { TelemetryReading } from '../telemetry/context-telemetry.ts';
import { ClusterUids } from './cluster-uids.ts';
import { ContextMonitor, type MonitorChange } from './context-monitor.ts';
import type { SourceConfig } from './source/monitor-source.ts';
import { TelemetryHub } from './telemetry-hub.ts';
import { Throttle } from './throttle.ts';

export type EngineEvent =
  | {
      type: 'inventory';
      context: string;
      inventory: GpuInventoryStatus;
      stale: boolean;
      /** Read from the in-cluster controller's GpuInventory, or built from the app's own node watch. */
      source: 'controller' | 'nodes';
    }
  | { type: 'connection'; context: string; state: ConnectionState }
  | { type: 'alert'; alert: PolicyAlert }
  /**
   * Events about a GPU node, read by a node detail or watched while monitoring (`nodeEvents`), for the
   * timeline, which keeps them past their expiry.
   */
  | { type: 'node-events'; context: string; node: string; events: NodeDetail['events'] }
  /** A DCGM reading of one node (background or on demand), for the timeline; null GPUs: it failed. */
  | { type: 'telemetry'; reading: TelemetryReading }
  /** The server sent nodes that were refused (invalid names): how many there are now, in a sentence. */
  | { type: 'ignored'; context: string; count: number; message: string }
  | { type: 'snapshot'; snapshot: FleetSnapshot };

export interface LastKnown {
  inventory: GpuInventoryStatus;
  history?: HistoryPoint[];
}

export interface EngineOptions {
  clock?: Clock;
  rules?: AlertRules;
  offset?: OffsetMinutes;
  makeClient?: (ctx: ResolvedContext) => ContextClient;
  watcher?: Omit<ListWatcherOptions, 'clock'>;
  /** Coalescing of `snapshot` events for windows and the tray (alerts are never delayed). */
  snapshotMs?: number;
  coalesceMs?: number;
  historyMax?: number;
  /** DCGM telemetry settings, read at each background step (default: DEFAULT_TELEMETRY). */
  telemetry?: () => TelemetrySettingsView;
  /** Per context, where its inventory comes from (read at every setContexts); nodes when absent. */
  source?: (ctx: ResolvedContext) => SourceConfig | null;
  /** Per context, whether free GPUs (the pods watch) are on (read at every setContexts); on when absent. */
  freeGpus?: (ctx: ResolvedContext) => boolean;
  /**
   * Whether contexts that reach the same cluster (kube/cluster-identity.ts) are one monitor, one card and
   * one set of alerts (read at every setContexts; default true).
   */
  mergeSameCluster?: () => boolean;
  /**
   * Watch the Kubernetes events about GPU nodes while monitoring, as `node-events` (the timeline records
   * them); off when absent. Forbidden: one line to `debug`, and monitoring goes on.
   */
  nodeEvents?: boolean;
  /** Lines for the host's debug log (e.g. a DCGM value that is no XID, ignored), with their context. */
  debug?: (context: string, line: string) => void;
}

interface Entry {
  monitor: ContextMonitor;
  fingerprint: string;
  context: ResolvedContext;
  /** The other contexts that reach the same cluster, watched through `context`. */
  also: ResolvedContext[];
}

/** A monitor restarts when its connection settings, its source or its free-GPU setting change. */
const entryKey = (ctx: ResolvedContext, source: SourceConfig | null, freeGpus: boolean) =>
  `${contextFingerprint(ctx)}\u0000${JSON.stringify(source)}\u0000${freeGpus}`;

/** Free GPUs of a monitor that has none to show (a controller without the summary): not known. */
const NO_FIGURES = unknownFree('off');

/** Detail reads in flight at once, across contexts (a window refreshing a panel needs one). */
const MAX_DETAIL_READS = 8;

export class FleetEngine {
  readonly #opts: EngineOptions;
  readonly #clock: Clock;
  readonly #listeners = new Set<(e: EngineEvent) => void>();
  readonly #entries = new Map<string, Entry>();
  #rules: AlertRules;
  #detailReads = 0;
  #policy: PolicyState = INITIAL_POLICY_STATE;
  #snooze: SnoozeState = NO_SNOOZE;
  #focused: string | null = null;
  /** The connection state last emitted per context: a monitor may report the same state again. */
  readonly #emittedConnection = new Map<string, ConnectionState>();
  /** Every monitored context name → the context whose monitor watches its cluster. */
  #watchedAs = new Map<string, string>();
  #tickTimer: unknown = null;
  #policyTimer: unknown = null;
  readonly #pendingPolicy = new Map<string, ContextMonitor>();
  /** Monitors whose free GPUs changed, for the optional no-free-GPU alert (judged apart: it is cheap). */
  readonly #pendingFree = new Map<string, ContextMonitor>();
  readonly #snapshots: Throttle;
  readonly #telemetry: TelemetryHub;
  readonly #uids: ClusterUids;
  /** The last setContexts call, run again when a kube-system uid becomes known (it may merge two). */
  #last: { all: readonly ResolvedContext[]; lastKnown: Record<string, LastKnown> } | null = null;
  /**
   * Contexts whose user may not list pods: within a merged group they are watched only when no other
   * context of it is left to try, so a nodes-only user listed first does not hide free GPUs.
   */
  readonly #podsForbidden = new Set<string>();

  constructor(opts: EngineOptions = {}) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#rules = opts.rules ?? { ...DEFAULT_ALERT_RULES };
    this.#snapshots = new Throttle(this.#clock, opts.snapshotMs ?? 50, () =>
      this.#emit({ type: 'snapshot', snapshot: this.snapshot() }),
    );
    this.#telemetry = new TelemetryHub({
      clock: this.#clock,
      makeClient: (c) => (opts.makeClient ?? ((x) => new ContextClient(x, { clock: this.#clock })))(c),
      settings: opts.telemetry ?? (() => DEFAULT_TELEMETRY),
      rules: () => this.#rules,
      snooze: () => this.#snooze,
      gpuNodes: (context) => this.#entries.get(context)?.monitor.inventory?.nodes.map((n) => n.name) ?? [],
      alert: (alert) => this.#emit({ type: 'alert', alert }),
      reading: (reading) => this.#emit({ type: 'telemetry', reading }),
      changed: () => this.#scheduleSnapshot(),
      ...(opts.debug ? { debug: opts.debug } : {}),
    });
    this.#uids = new ClusterUids({
      clock: this.#clock,
      makeClient: (c) => (opts.makeClient ?? ((x) => new ContextClient(x, { clock: this.#clock })))(c),
      changed: () => {
        if (this.#last) this.setContexts(this.#last.all, this.#last.lastKnown);
      },
      ...(opts.debug ? { debug: opts.debug } : {}),
    });
  }

  on(listener: (e: EngineEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Monitors exactly these contexts: new ones start, missing ones stop, and a context whose connection
   * settings changed (kubeconfig edited) restarts; unchanged healthy contexts are left alone. Contexts
   * that reach the same cluster are watched once, through the first of them (unless mergeSameCluster
   * says no): one monitor, one card naming them all, one set of alerts.
   */
  setContexts(all: readonly ResolvedContext[], lastKnown: Record<string, LastKnown> = {}): void {
    const merge = this.#opts.mergeSameCluster?.() ?? true;
    this.#last = { all, lastKnown };
    // Same server and CA, or (once read, where the user may) the same kube-system namespace uid. Uids are
    // read only when the addresses leave more than one group: one context (the controller, `watch
    // --context`) or contexts all on one address have nothing a uid could join.
    if (merge && groupByCluster(all).length > 1) this.#uids.want(all);
    const grouped = merge ? groupByCluster(all, (c) => this.#uids.uidOf(c)) : all.map((c) => [c]);
    // Within a group, the contexts whose pods are forbidden go last (the first one is watched).
    const forbidden = this.#podsForbidden;
    const groups = grouped.map((g) => [
      ...g.filter((c) => !forbidden.has(c.name)),
      ...g.filter((c) => forbidden.has(c.name)),
    ]);
    const contexts = groups.flatMap((g) => (g[0] ? [g[0]] : []));
    const also = new Map(groups.map((g) => [g[0]?.name ?? '', g.slice(1)]));
    this.#watchedAs = new Map(groups.flatMap((g) => g.map((c) => [c.name, g[0]?.name ?? c.name])));
    const wanted = new Map(contexts.map((c) => [c.name, c]));
    for (const [name, entry] of this.#entries) {
      const next = wanted.get(name);
      if (
        !next ||
        entryKey(next, this.#opts.source?.(next) ?? null, this.#freeGpus(next)) !== entry.fingerprint
      ) {
        entry.monitor.stop();
        this.#entries.delete(name);
        this.#emittedConnection.delete(name);
        // The next monitor may watch another cluster under the same name: comparing its nodes with the
        // old cluster's would raise a false ready-drop. Its alert history starts afresh.
        this.#policy = forgetContext(this.#policy, name);
      }
    }
    for (const ctx of contexts) {
      const kept = this.#entries.get(ctx.name);
      if (kept) {
        kept.also = also.get(ctx.name) ?? [];
        continue;
      }
      const previous = own(lastKnown, ctx.name);
      const source = this.#opts.source?.(ctx) ?? null;
      const freeGpus = this.#freeGpus(ctx);
      const monitor = new ContextMonitor(
        {
          context: ctx.name,
          server: ctx.cluster?.cluster.server ?? null,
          makeClient: () => (this.#opts.makeClient ?? ((c) => new ContextClient(c)))(ctx),
          clock: this.#clock,
          ...(this.#opts.watcher ? { watcher: this.#opts.watcher } : {}),
          ...(this.#opts.coalesceMs !== undefined ? { coalesceMs: this.#opts.coalesceMs } : {}),
          ...(this.#opts.historyMax !== undefined ? { historyMax: this.#opts.historyMax } : {}),
          lastKnown: previous ? { inventory: previous.inventory, history: previous.history ?? [] } : null,
          ...(source ? { source } : {}),
          freeGpus,
          ...(this.#opts.nodeEvents
            ? {
                nodeEvents: {
                  onEvents: (node: string, events: NodeDetail['events']) =>
                    this.#emit({ type: 'node-events', context: ctx.name, node, events }),
                  onForbidden: (sentence: string) => this.#opts.debug?.(ctx.name, sentence),
                },
              }
            : {}),
        },
        (change, m) => this.#onMonitor(change, m),
      );
      this.#entries.set(ctx.name, {
        monitor,
        fingerprint: entryKey(ctx, source, freeGpus),
        context: ctx,
        also: also.get(ctx.name) ?? [],
      });
      monitor.start();
    }
    this.#telemetry.set(contexts);
    if (this.#focused === null || !this.#entries.has(this.#focused))
      this.#focused = contexts[0]?.name ?? null;
    this.#scheduleSnapshot();
  }

  /**
   * The watched context of a merged group may not list pods: watch the group through another of its
   * contexts not yet found forbidden (once each; with all tried, the first is watched again).
   */
  #tryOtherContext(monitor: ContextMonitor): void {
    // Not monitor.free: that builds the figures over every node, and this runs on every pod event.
    if (!monitor.podsForbidden || this.#podsForbidden.has(monitor.context)) return;
    const entry = this.#entries.get(monitor.context);
    if (!entry?.also.some((c) => !this.#podsForbidden.has(c.name))) return;
    this.#podsForbidden.add(monitor.context);
    // Not from within the monitor's own callback: it is stopped by the regrouping.
    queueMicrotask(() => {
      if (this.#last) this.setContexts(this.#last.all, this.#last.lastKnown);
    });
  }

  #freeGpus(ctx: ResolvedContext): boolean {
    return this.#opts.freeGpus?.(ctx) ?? true;
  }

  /** The context whose monitor watches this context's cluster (itself unless merged into another). */
  watchedAs(context: string): string {
    return this.#watchedAs.get(context) ?? context;
  }

  focus(name: string): boolean {
    const context = this.watchedAs(name);
    if (!this.#entries.has(context)) return false;
    this.#focused = context;
    this.#scheduleSnapshot();
    return true;
  }

  setRules(rules: AlertRules): void {
    this.#rules = rules;
    if (rules.noFreeGpu) for (const { monitor } of this.#entries.values()) this.#queueFree(monitor);
    this.#runTick();
  }

  /** Pause alerts for one context, or all (`scope` null). */
  snooze(scope: string | null, until: SnoozeUntil): void {
    this.#snooze = snooze(
      this.#snooze,
      scope === null ? null : this.watchedAs(scope),
      until,
      this.#clock.now(),
      this.#opts.offset ?? systemOffset,
    );
    this.#scheduleSnapshot();
  }

  resume(scope: string | null): void {
    this.#snooze = resume(this.#snooze, scope === null ? null : this.watchedAs(scope));
    this.#scheduleSnapshot();
  }

  get snoozeState(): SnoozeState {
    return this.#snooze;
  }

  setSnoozeState(state: SnoozeState): void {
    this.#snooze = pruneSnooze(state, this.#clock.now());
  }

  setWriteback(context: string, state: WritebackState): void {
    this.#entries.get(this.watchedAs(context))?.monitor.setWriteback(state);
    this.#scheduleSnapshot();
  }

  retryNow(): void {
    for (const { monitor } of this.#entries.values()) monitor.retryNow();
  }

  /**
   * One node's detail, read on demand from the cluster (see common/ipc.ts `node:detail`) with a client of
   * its own that is closed when the read ends: nothing stays open or watched for a closed panel, and the
   * node cache is not touched. Rejects with one sentence (never a credential) when it cannot be read.
   */
  async nodeDetail(name: string, node: string): Promise<NodeDetail> {
    const context = this.watchedAs(name);
    const entry = this.#entries.get(context);
    const who = clusterText(context, 80);
    if (!entry) throw new Error(`"${who}" is not a monitored context.`);
    if (this.#detailReads >= MAX_DETAIL_READS)
      throw new Error('Too many node details are being read at once; try again in a moment.');
    this.#detailReads++;
    let client: ContextClient | null = null;
    try {
      // Read with the credentials of the context asked for, even when its cluster is watched through another.
      const asked = entry.also.find((c) => c.name === name) ?? entry.context;
      client = (this.#opts.makeClient ?? ((c) => new ContextClient(c, { clock: this.#clock })))(asked);
      const lastSeen = entry.monitor.inventory?.nodes.find((n) => n.name === node)?.last_seen ?? null;
      const detail = await fetchNodeDetail(client, context, node, { now: this.#clock.now(), lastSeen });
      if (detail === null) throw new Error(`${who} has no node named ${clusterText(node, 253)}.`);
      if (detail.gpu !== null) {
        detail.telemetry = await this.#telemetry.onDemand(context, node, client);
        this.#emit({ type: 'node-events', context, node, events: detail.events });
      }
      return detail;
    } catch (error) {
      if (error instanceof KubeError) throw new Error(shownText(error.message));
      throw error;
    } finally {
      this.#detailReads--;
      client?.close();
    }
  }

  snapshot(): FleetSnapshot {
    const now = this.#clock.now();
    this.#snooze = pruneSnooze(this.#snooze, now);
    const contexts = [...this.#entries.values()].map((e) => {
      const s = e.monitor.snapshot();
      const telemetry = this.#telemetry.summary(e.context.name, productlessNodes(s.inventory));
      const paused = pausedUntil(own(this.#snooze.contexts, e.context.name));
      const flapping = flappingNodes(this.#policy, e.context.name);
      return {
        ...s,
        ...(telemetry === null ? {} : { telemetry }),
        ...(paused === null ? {} : { alertsPausedUntil: paused }),
        ...(e.also.length > 0 ? { sameCluster: e.also.map((c) => c.name) } : {}),
        ...(flapping.length > 0 ? { flapping } : {}),
      };
    });
    const all = this.#snooze.all;
    return {
      contexts,
      focused: this.#focused,
      alertsPausedUntil: pausedUntil(all),
      health: fleetHealth(contexts, all !== null),
      generatedAt: new Date(now).toISOString(),
    };
  }

  stop(): void {
    for (const { monitor } of this.#entries.values()) monitor.stop();
    this.#entries.clear();
    this.#telemetry.stop();
    this.#uids.stop();
    this.#last = null;
    if (this.#tickTimer !== null) this.#clock.clearTimeout(this.#tickTimer);
    this.#snapshots.cancel();
    if (this.#policyTimer !== null) this.#clock.clearTimeout(this.#policyTimer);
    this.#pendingPolicy.clear();
    this.#pendingFree.clear();
    this.#tickTimer = this.#policyTimer = null;
  }

  #emit(event: EngineEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  #onMonitor(change: MonitorChange, monitor: ContextMonitor): void {
    if (change === 'free') {
      this.#queueFree(monitor);
      this.#scheduleSnapshot();
      this.#tryOtherContext(monitor);
      return;
    }
    if (change === 'ignored') {
      const ignored = monitor.snapshot().ignoredNodes;
      this.#emit({
        type: 'ignored',
        context: monitor.context,
        count: ignored?.count ?? 0,
        message: ignored?.message ?? 'No nodes are ignored any more.',
      });
      this.#scheduleSnapshot();
      return;
    }
    if (change === 'inventory' && monitor.inventory) {
      this.#emit({
        type: 'inventory',
        context: monitor.context,
        inventory: monitor.inventory,
        // Not monitor.snapshot(): that builds the free-GPU figures too, which the snapshot task does next.
        stale: monitor.stale,
        source: monitor.activeSource === 'nodes' ? 'nodes' : 'controller',
      });
    } else if (change === 'connection' && this.#newConnection(monitor)) {
      this.#emit({ type: 'connection', context: monitor.context, state: monitor.connection });
    }
    // The alert policy runs in a task of its own: after a 5,000-node relist, building the inventory and
    // judging every node in one go would hold the event loop (and the tray) for too long.
    this.#pendingPolicy.set(monitor.context, monitor);
    this.#queueFree(monitor);
    this.#policyTimer ??= this.#clock.setTimeout(() => this.#runPolicy(), 0);
    this.#scheduleSnapshot();
  }

  /** With the no-free-GPU alert on, the monitor's free GPUs are judged at the next policy run. */
  #queueFree(monitor: ContextMonitor): void {
    if (!this.#rules.noFreeGpu) return;
    this.#pendingFree.set(monitor.context, monitor);
    this.#policyTimer ??= this.#clock.setTimeout(() => this.#runPolicy(), 0);
  }

  /** Whether the monitor's connection state differs from the one last emitted for it (and records it). */
  #newConnection(monitor: ContextMonitor): boolean {
    const next = monitor.connection;
    const prev = this.#emittedConnection.get(monitor.context);
    this.#emittedConnection.set(monitor.context, next);
    return !(
      prev !== undefined &&
      prev.phase === next.phase &&
      prev.message === next.message &&
      prev.attempt === next.attempt &&
      prev.retryAt === next.retryAt
    );
  }

  #runPolicy(): void {
    this.#policyTimer = null;
    const monitors = [...this.#pendingPolicy.values()];
    this.#pendingPolicy.clear();
    const free = [...this.#pendingFree.values()];
    this.#pendingFree.clear();
    for (const monitor of monitors) {
      if (this.#entries.get(monitor.context)?.monitor !== monitor) continue; // replaced or stopped meanwhile
      const phase = monitor.connection.phase;
      const result = evaluate(
        this.#policy,
        {
          at: this.#clock.now(),
          context: monitor.context,
          reachable: countsAsReachable(phase),
          inventory: monitor.synced ? monitor.inventory : null,
        },
        this.#rules,
        this.#snooze,
      );
      this.#afterPolicy(result.state, result.alerts, result.nextCheckAt);
    }
    for (const monitor of free) {
      if (this.#entries.get(monitor.context)?.monitor !== monitor) continue;
      const figures = monitor.free ?? NO_FIGURES;
      const obs = { at: this.#clock.now(), context: monitor.context, free: figures };
      const result = evaluateFree(this.#policy, obs, this.#rules, this.#snooze);
      this.#afterPolicy(result.state, result.alerts, result.nextCheckAt);
    }
  }

  #runTick(): void {
    this.#tickTimer = null;
    const result = tick(this.#policy, this.#clock.now(), this.#rules, this.#snooze);
    this.#afterPolicy(result.state, result.alerts, result.nextCheckAt);
  }

  #afterPolicy(state: PolicyState, alerts: PolicyAlert[], nextCheckAt: number | null): void {
    const before = this.#policy;
    this.#policy = state;
    // The snapshot says which nodes flap: a change of that (a node starts or stops flapping) is news.
    const names = new Set([...Object.keys(before.contexts), ...Object.keys(state.contexts)]);
    if ([...names].some((c) => flappingNodes(before, c).join() !== flappingNodes(state, c).join()))
      this.#scheduleSnapshot();
    for (const alert of alerts) this.#emit({ type: 'alert', alert });
    if (this.#tickTimer !== null) this.#clock.clearTimeout(this.#tickTimer);
    this.#tickTimer = null;
    if (nextCheckAt !== null) {
      this.#tickTimer = this.#clock.setTimeout(
        () => this.#runTick(),
        Math.max(0, nextCheckAt - this.#clock.now()),
      );
    }
  }

  #scheduleSnapshot(): void {
    this.#snapshots.request();
  }
}
