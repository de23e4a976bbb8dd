/**
 * The in-cluster controller: the app's own engine (FleetEngine) and write-back (WritebackHub) on one
 * context, with leader election deciding who writes. Every replica watches nodes and keeps its cache
 * and inventory warm; only the leader has write-back switched on, so a failover needs no relist.
 *
 * Leadership, /readyz and `gpu_fleet_synced` follow the loops that matter (loop-health.ts), not the
 * Lease alone: a leader whose node watch or writes have failed for longer than the renew deadline
 * releases the Lease and says why; a replica whose watch is not live does not take it; one that gave up
 * because its writes were refused waits two lease durations before it tries again (so two replicas with
 * the same refused writes do not pass the Lease back and forth every few seconds). The leader's
 * freshness mark rides on its renews (LEASE_FRESH_ANNOTATION).
 *
 * Stopping: leadership is given up first (the writers stop and their requests in flight are cancelled),
 * then the lease is released so another replica takes over at once, then the watches close.
 */

import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { DEFAULT_TELEMETRY, type TelemetrySettingsView } from '../../common/telemetry.ts';
import { FleetEngine } from '../fleet/engine.ts';
import { LEASE_FRESH_ANNOTATION } from '../fleet/source/controller-objects.ts';
import { type Clock, systemClock } from '../kube/clock.ts';
import { ContextClient } from '../kube/context-client.ts';
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';
import type { Logger } from '../log/logger.ts';
import { WritebackHub, type WritebackSettings } from '../writeback/hub.ts';
import { CONTROLLER_FIT_LIMITS, type FitLimits, type WriteEvent } from '../writeback/index.ts';
import { FreeGpusHost } from './free-host.ts';
import { DEFAULT_TIMING, type ElectionTiming } from './leader-decision.ts';
import { LeaderElector, type LeadershipEvent } from './leader-election.ts';
import { leaseLock } from './lease-lock.ts';
import { microTime } from './lease-record.ts';
import { LoopHealth } from './loop-health.ts';
import { ControllerMetrics } from './metrics.ts';

const NO_TELEMETRY: TelemetrySettingsView = { ...DEFAULT_TELEMETRY, background: 'off' };

export interface ControllerOptions {
  context: ResolvedContext;
  identity: string;
  leaseNamespace: string;
  writeback: WritebackSettings;
  /** How the status is cut to size (default CONTROLLER_FIT_LIMITS: only NotReady nodes above SCALE_GPU_NODES). */
  fitLimits?: FitLimits;
  logger: Logger;
  clock?: Clock;
  timing?: ElectionTiming;
  random?: () => number;
  makeClient?: (ctx: ResolvedContext) => ContextClient;
}

/** A lease request that takes longer than this fails the try; the next one comes a retry period later. */
const LEASE_REQUEST_TIMEOUT_MS = 4_000;

export class Controller {
  readonly metrics = new ControllerMetrics();
  readonly #o: ControllerOptions;
  readonly #engine: FleetEngine;
  readonly #hub: WritebackHub;
  readonly #elector: LeaderElector;
  readonly #leaseClient: ContextClient;
  readonly #log: Logger;
  #synced = false;
  readonly #health: LoopHealth;
  readonly #clock: Clock;
  readonly #timing: ElectionTiming;
  /** A replica that gave up leading for refused writes does not try again before this. */
  #holdOffUntil = 0;
  #tick: unknown = null;
  #stopping: Promise<void> | null = null;
  #off: (() => void) | null = null;

  constructor(opts: ControllerOptions) {
    this.#o = opts;
    this.#log = opts.logger;
    const clock = opts.clock ?? systemClock;
    this.#clock = clock;
    this.#health = new LoopHealth(clock.now());
    // The replica's name in the API server's audit log and request metrics.
    const userAgent = `gpu-fleet-controller (${opts.identity})`;
    const makeClient =
      opts.makeClient ?? ((c: ResolvedContext) => new ContextClient(c, { clock, userAgent }));
    // No DCGM scrapes: the controller writes the inventory, it shows no node detail, and its RBAC
    // (manifests.ts) grants no pods/proxy. It lists and watches pods for the free GPUs it writes.
    this.#engine = new FleetEngine({
      clock,
      rules: DEFAULT_ALERT_RULES,
      makeClient,
      telemetry: () => NO_TELEMETRY,
    });
    this.#hub = new WritebackHub(new FreeGpusHost(this.#engine), { clock, makeClient }, (e) =>
      this.#onWrite(e),
    );
    this.#leaseClient = makeClient(opts.context);
    const timing = opts.timing ?? DEFAULT_TIMING;
    this.#timing = timing;
    this.#elector = new LeaderElector({
      identity: opts.identity,
      lock: leaseLock(
        this.#leaseClient,
        opts.leaseNamespace,
        Math.min(LEASE_REQUEST_TIMEOUT_MS, timing.renewDeadlineMs / 2),
      ),
      clock,
      timing,
      ...(opts.random ? { random: opts.random } : {}),
      onEvent: (e) => this.#onLeadership(e),
      veto: (leading) => this.#veto(leading),
      annotations: (): Record<string, string> => {
        const fresh = this.#health.freshAt(clock.now());
        return fresh === null ? {} : { [LEASE_FRESH_ANNOTATION]: microTime(fresh) };
      },
    });
  }

  /** Why this replica must not lead now (see the module comment), or null. */
  #veto(leading: boolean): string | null {
    const now = this.#clock.now();
    if (leading) {
      const problem = this.#health.problem(now, this.#timing.renewDeadlineMs);
      // With the watch live, it was the writes: they will be refused again for a while.
      if (problem !== null && this.#health.watchLive)
        this.#holdOffUntil = now + 2 * this.#timing.leaseDurationMs;
      return problem;
    }
    if (!this.#health.watchLive) return 'the node watch is not live';
    if (now < this.#holdOffUntil) return 'its writes were refused; waiting before leading again';
    return null;
  }

  /** Re-judges `gpu_fleet_synced` as time passes (a failing watch sends no more events). */
  #checkSynced(): void {
    this.metrics.synced(this.readiness() === null);
    this.#tick = this.#clock.setTimeout(() => this.#checkSynced(), this.#timing.retryPeriodMs);
  }

  start(): void {
    this.#off = this.#engine.on((e) => {
      if (e.type === 'inventory') {
        this.metrics.inventory(e.inventory);
        if (!e.stale && !this.#synced) {
          this.#synced = true;
          this.metrics.synced(this.readiness() === null);
          this.#log.info('node cache synced', {
            ready: e.inventory.ready_gpu_nodes,
            total: e.inventory.total_gpu_nodes,
            gpus: e.inventory.total_gpus,
          });
        }
      } else if (e.type === 'connection') {
        this.#health.watch(e.state.phase, e.state.message, this.#clock.now());
        this.metrics.connection(e.state.phase);
        const fields = { phase: e.state.phase, message: e.state.message, attempt: e.state.attempt };
        if (e.state.phase === 'live' || e.state.phase === 'connecting') this.#log.info('connection', fields);
        else this.#log.warn('connection', fields);
      }
    });
    this.#engine.setContexts([this.#o.context]);
    this.#elector.start();
    this.#checkSynced();
  }

  /** True while this replica holds the lease (and so writes). */
  get leading(): boolean {
    return this.#elector.leading;
  }

  /**
   * Null when ready: the node cache has been listed, its watch has not been failing for longer than
   * the renew deadline, and (leading) neither have the writes. Else the sentence /readyz answers.
   */
  readiness(): string | null {
    if (!this.#synced) return 'the node cache has not been synced yet';
    const now = this.#clock.now();
    const limit = this.#timing.renewDeadlineMs;
    return this.leading ? this.#health.problem(now, limit) : this.#health.watchProblem(now, limit);
  }

  health(): string | null {
    return this.#stopping !== null ? 'shutting down' : null;
  }

  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#clock.clearTimeout(this.#tick);
      await this.#elector.stop();
      this.#hub.stop();
      this.#off?.();
      this.#engine.stop();
      this.#leaseClient.close();
    })();
    return this.#stopping;
  }

  #onLeadership(e: LeadershipEvent): void {
    const fields = { identity: e.identity, lease: e.lease };
    switch (e.type) {
      case 'started-leading': {
        // Above SCALE_GPU_NODES the status lists only NotReady nodes: trays reading it get small events.
        const fitLimits = this.#o.fitLimits ?? CONTROLLER_FIT_LIMITS;
        this.#health.term();
        // The status names this install's Lease: another install's controller then declines to write.
        const writer = e.lease;
        this.#hub.set([this.#o.context], () => ({ ...this.#o.writeback, fitLimits, writer }));
        this.metrics.leader(true);
        this.#log.info('became leader: writing the GpuInventory status and the ConfigMap', {
          ...fields,
          transitions: e.transitions,
        });
        break;
      }
      case 'stopped-leading':
        // Before anything else: a replica that is not sure it leads must not write.
        this.#hub.set([this.#o.context], () => null);
        this.#health.term();
        this.metrics.leader(false);
        this.#log.warn(`stopped leading: ${e.reason}`, fields);
        break;
      case 'new-leader': {
        // A holder others wrote may be any length: the log shows its start.
        const holder = e.holder.length > 253 ? `${e.holder.slice(0, 253)}…` : e.holder;
        this.#log.info(holder === '' ? 'the lease is free' : `leader is now "${holder}"`, {
          ...fields,
          leader: holder,
        });
        break;
      }
      case 'released':
        this.#log.info('released the lease', fields);
        break;
      case 'error':
        this.#log.warn(`leader election: ${e.message}`, fields);
        break;
    }
  }

  #onWrite(e: WriteEvent): void {
    this.metrics.write(e);
    if (this.#elector.leading) this.#health.write(e, this.#clock.now());
    const fields = { target: e.target, action: e.action, reason: e.reason };
    if (e.action === 'failed') this.#log.warn('write-back', fields);
    else if (e.action === 'written') this.#log.info('write-back', fields);
    else this.#log.debug('write-back', fields);
  }
}
