/**
 * The in-cluster controller: the app's own engine (FleetEngine) and write-back (WritebackHub) on one
 * context, with leader election deciding who writes. Every replica watches nodes and keeps its cache
 * and inventory warm; only the leader has write-back switched on, so a failover needs no relist.
 *
 * Stopping: leadership is given up first (the writers stop and their requests in flight are cancelled),
 * then the lease is released so another replica takes over at once, then the watches close.
 */

import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { DEFAULT_TELEMETRY, type TelemetrySettingsView } from '../../common/telemetry.ts';
import { FleetEngine } from '../fleet/engine.ts';
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
  #stopping: Promise<void> | null = null;
  #off: (() => void) | null = null;

  constructor(opts: ControllerOptions) {
    this.#o = opts;
    this.#log = opts.logger;
    const clock = opts.clock ?? systemClock;
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
    });
  }

  start(): void {
    this.#off = this.#engine.on((e) => {
      if (e.type === 'inventory') {
        this.metrics.inventory(e.inventory);
        if (!e.stale && !this.#synced) {
          this.#synced = true;
          this.metrics.synced(true);
          this.#log.info('node cache synced', {
            ready: e.inventory.ready_gpu_nodes,
            total: e.inventory.total_gpu_nodes,
            gpus: e.inventory.total_gpus,
          });
        }
      } else if (e.type === 'connection') {
        this.metrics.connection(e.state.phase);
        const fields = { phase: e.state.phase, message: e.state.message, attempt: e.state.attempt };
        if (e.state.phase === 'live' || e.state.phase === 'connecting') this.#log.info('connection', fields);
        else this.#log.warn('connection', fields);
      }
    });
    this.#engine.setContexts([this.#o.context]);
    this.#elector.start();
  }

  /** True while this replica holds the lease (and so writes). */
  get leading(): boolean {
    return this.#elector.leading;
  }

  /** Null when ready: the node cache has been listed once. */
  readiness(): string | null {
    return this.#synced ? null : 'the node cache has not been synced yet';
  }

  health(): string | null {
    return this.#stopping !== null ? 'shutting down' : null;
  }

  stop(): Promise<void> {
    this.#stopping ??= (async () => {
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
        this.#hub.set([this.#o.context], () => ({ ...this.#o.writeback, fitLimits }));
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
        this.metrics.leader(false);
        this.#log.warn(`stopped leading: ${e.reason}`, fields);
        break;
      case 'new-leader':
        this.#log.info(e.holder === '' ? 'the lease is free' : `leader is now "${e.holder}"`, {
          ...fields,
          leader: e.holder,
        });
        break;
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
    const fields = { target: e.target, action: e.action, reason: e.reason };
    if (e.action === 'failed') this.#log.warn('write-back', fields);
    else if (e.action === 'written') this.#log.info('write-back', fields);
    else this.#log.debug('write-back', fields);
  }
}
