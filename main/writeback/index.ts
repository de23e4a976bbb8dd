/**
 * Write-back for one context: the GpuInventory status writer and the ConfigMap writer, fed by the
 * engine's inventory events. The two loops are independent (one failing never stops the other) and
 * neither throws; their states merge into the one WritebackState the window shows for the context.
 *
 * Why it cannot feed itself: the input is the engine's node inventory, built from a watch on Nodes.
 * Neither the GpuInventory nor the ConfigMap is watched, so our own writes produce no input; and even
 * if they did, an inventory equal to what the cluster holds is never re-applied.
 */
import type { WritebackPhase, WritebackState } from '../../common/fleet.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import type { Clock } from '../kube/clock.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { ApplyLoop, type LoopOutcome } from './apply-loop.ts';
import { type ConfigMapData, configMapData, configMapTarget } from './configmap-writer.ts';
import { DEFAULT_FIT_LIMITS, type FitLimits, statusIntervalMs } from './fit.ts';
import { type InstallResult, installWriteback } from './install.ts';
import { fitStatus, statusTarget } from './status-writer.ts';

export { CONFIGMAP_NAME, DEFAULT_CONFIGMAP_NAMESPACE } from './configmap-writer.ts';
export { buildCrd, crdName, DEFAULT_CRD_GROUP, INVENTORY_OBJECT_NAME } from './crd.ts';
export { CONTROLLER_FIT_LIMITS, type FitLimits, SCALE_GPU_NODES, SCALE_MIN_INTERVAL_MS } from './fit.ts';
export { type InstallResult, installWriteback } from './install.ts';
export { WriteError } from './write-error.ts';

/** Coalescing window: at most one apply per target per this many ms. */
export const DEFAULT_MIN_INTERVAL_MS = 5000;

export type WriteTarget = 'status' | 'configmap';

/** One line of `watch -o json` for every write made, skipped for no change, or failed. */
export interface WriteEvent {
  type: 'write';
  context: string;
  target: WriteTarget;
  action: 'written' | 'skipped' | 'failed';
  reason: string;
  /** RFC 3339 */
  at: string;
}

export interface ContextWritebackOptions {
  context: string;
  /** Owned by the caller; stop() does not close it. */
  client: ContextClient;
  group: string;
  configMapNamespace: string;
  clock: Clock;
  minIntervalMs?: number;
  maxBackoffMs?: number;
  /** The user allowed taking over objects/fields another tool manages (never its ConfigMap keys). */
  takeOver?: boolean;
  /** The in-cluster controller's Lease, marked as the status's writer (status-writer.ts). */
  writer?: string;
  /** Size budgets of the two objects (fit.ts); tests scale them down with the simulator's limits. */
  fitLimits?: FitLimits;
  /** Called whenever state() changes (phase, message, counters). */
  onState?: (state: WritebackState) => void;
}

// Worst first: the merged state shows the most actionable problem.
const SEVERITY: WritebackPhase[] = [
  'forbidden',
  'crd-missing',
  'crd-mismatch',
  'conflict',
  'invalid',
  'error',
  'writing',
  'idle',
  'off',
];

export class ContextWriteback {
  readonly #status: ApplyLoop<GpuInventoryStatus>;
  readonly #configMap: ApplyLoop<ConfigMapData>;

  constructor(
    private readonly opts: ContextWritebackOptions,
    private readonly onEvent: (e: WriteEvent) => void = () => undefined,
  ) {
    const loopOpts = {
      clock: opts.clock,
      minIntervalMs: opts.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS,
      ...(opts.maxBackoffMs !== undefined ? { maxBackoffMs: opts.maxBackoffMs } : {}),
    };
    const onState = () => opts.onState?.(this.state());
    this.#status = new ApplyLoop(
      statusTarget(opts.client, opts.group, {
        takeOver: opts.takeOver === true,
        ...(opts.writer !== undefined ? { writer: opts.writer } : {}),
      }),
      loopOpts,
      (o) => this.#emit('status', o),
      onState,
    );
    this.#configMap = new ApplyLoop(
      configMapTarget(opts.client, opts.configMapNamespace, { takeOver: opts.takeOver === true }),
      loopOpts,
      (o) => this.#emit('configmap', o),
      onState,
    );
  }

  /** Feed every inventory event; stale (last-known, cluster unreachable) inventories are never written. */
  update(inventory: GpuInventoryStatus, stale: boolean): void {
    if (stale) return;
    const limits = this.opts.fitLimits ?? DEFAULT_FIT_LIMITS;
    const base = this.opts.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS;
    this.#status.want(
      fitStatus(inventory, limits.statusBytes, limits.listReadyUpTo),
      statusIntervalMs(inventory.total_gpu_nodes, base, limits),
    );
    this.#configMap.want(configMapData(inventory, limits.configMapBytes));
  }

  /** Installs the CRD (if needed) and the `cluster` object; see install.ts. Throws WriteError. */
  install(timeoutMs?: number): Promise<InstallResult> {
    return installWriteback(this.opts.client, {
      group: this.opts.group,
      clock: this.opts.clock,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
  }

  /** Both loops merged: the worse phase, both messages, summed counters. */
  state(): WritebackState {
    return mergeStates(this.#status.state(), this.#configMap.state(), this.opts.configMapNamespace);
  }

  stop(): void {
    this.#status.stop();
    this.#configMap.stop();
  }

  #emit(target: WriteTarget, o: LoopOutcome): void {
    try {
      this.onEvent({ type: 'write', context: this.opts.context, target, ...o });
    } catch {
      // A listener's bug must not break the loop that called it.
    }
  }
}

export function mergeStates(
  status: WritebackState,
  configMap: WritebackState,
  namespace: string,
): WritebackState {
  const rank = (p: WritebackPhase) => SEVERITY.indexOf(p);
  const phase = rank(status.phase) <= rank(configMap.phase) ? status.phase : configMap.phase;
  const messages = [
    status.message ? `GpuInventory: ${status.message}` : null,
    configMap.message ? `ConfigMap ${namespace}/gpu-node-status: ${configMap.message}` : null,
  ].filter((m): m is string => m !== null);
  const last = [status.lastWriteAt, configMap.lastWriteAt].filter((t): t is string => t !== null).sort();
  const owners = [...new Set([...(status.owners ?? []), ...(configMap.owners ?? [])])];
  return {
    phase,
    message: messages.length > 0 ? messages.join(' ') : null,
    lastWriteAt: last.at(-1) ?? null,
    writes: status.writes + configMap.writes,
    skipped: status.skipped + configMap.skipped,
    ...(phase === 'conflict' && owners.length > 0 ? { owners } : {}),
  };
}
