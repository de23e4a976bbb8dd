/** The user-tunable alert rules and their defaults: persisted by settings, read by the alert policy (here so both import it from below). */

export interface AlertRules {
  /** How long `ready_gpu_nodes` must stay dropped before we alert; 0 alerts on the first observation. */
  holdDownMs: number;
  /** Continuous unreachability before an `unreachable` alert. */
  unreachableAfterMs: number;
  /** A node is flapping when it changes readiness MORE than this many times within `flapWindowMs`. */
  flapThreshold: number;
  /** The flap window; also how long a flapping node must stay stable before it is watched again. */
  flapWindowMs: number;
  /** Alert when a Ready node's allocatable GPUs fall below its capacity. */
  withdrawnGpus: boolean;
  /** A GPU above this temperature (°C, DCGM telemetry) for longer than the hold-down raises `gpu-hot`. */
  gpuHotC: number;
  /**
   * Alert when no GPU of a product is free in a cluster for the hold-down (and when one is free again).
   * Off by default: a busy cluster is often full on purpose. One switch for every cluster, like the other
   * rules; a cluster whose free GPUs are off (the per-cluster `freeGpus`) or unknown never raises it.
   */
  noFreeGpu: boolean;
}

/** The temperatures `gpuHotC` may be set to (°C): the settings file, IPC and the settings form check it. */
export const GPU_HOT_C_MIN = 30;
export const GPU_HOT_C_MAX = 120;

export const DEFAULT_ALERT_RULES: Readonly<AlertRules> = Object.freeze({
  holdDownMs: 30_000,
  unreachableAfterMs: 60_000,
  flapThreshold: 2,
  flapWindowMs: 15 * 60_000,
  withdrawnGpus: true,
  gpuHotC: 85,
  noFreeGpu: false,
});
