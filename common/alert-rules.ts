/**
 * The user-tunable alert rules, their limits and their defaults: persisted by settings (common/settings.ts
 * builds the settings file's, the window's and the IPC patch's shape from this schema), read by the alert
 * policy (here so both import it from below).
 */
import { type Static, Type } from '@sinclair/typebox';

/** The temperatures `gpuHotC` may be set to (°C): the one schema below holds them for file, IPC and form. */
export const GPU_HOT_C_MIN = 30;
export const GPU_HOT_C_MAX = 120;
/** The longest hold-down and unreachable threshold a user can set. */
export const HOLD_DOWN_MS_MAX = 3600_000;
export const UNREACHABLE_MS_MAX = 24 * 3600_000;

/** The rules the window shows and edits. */
export const AlertRulesViewSchema = Type.Object(
  {
    /** How long `ready_gpu_nodes` must stay dropped before we alert; 0 alerts on the first observation. */
    holdDownMs: Type.Integer({ minimum: 0, maximum: HOLD_DOWN_MS_MAX }),
    /** Continuous unreachability before an `unreachable` alert. */
    unreachableAfterMs: Type.Integer({ minimum: 0, maximum: UNREACHABLE_MS_MAX }),
    /** Alert when a Ready node's allocatable GPUs fall below its capacity. */
    withdrawnGpus: Type.Boolean(),
    /** A GPU above this temperature (°C, DCGM telemetry) for longer than the hold-down raises `gpu-hot`. */
    gpuHotC: Type.Integer({ minimum: GPU_HOT_C_MIN, maximum: GPU_HOT_C_MAX }),
    /**
     * Alert when no GPU of a product is free in a cluster for the hold-down (and when one is free again).
     * Off by default: a busy cluster is often full on purpose. One switch for every cluster, like the
     * other rules; a cluster whose free GPUs are off (the per-cluster `freeGpus`) or unknown never raises it.
     */
    noFreeGpu: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type AlertRulesView = Static<typeof AlertRulesViewSchema>;

/** All the rules, as the settings file keeps them: the window's and two it does not show. */
export const AlertRulesSchema = Type.Object(
  {
    ...AlertRulesViewSchema.properties,
    /** A node is flapping when it changes readiness MORE than this many times within `flapWindowMs`. */
    flapThreshold: Type.Integer({ minimum: 1 }),
    /** The flap window; also how long a flapping node must stay stable before it is watched again. */
    flapWindowMs: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type AlertRules = Static<typeof AlertRulesSchema>;

export const DEFAULT_ALERT_RULES: Readonly<AlertRules> = Object.freeze({
  holdDownMs: 30_000,
  unreachableAfterMs: 60_000,
  flapThreshold: 2,
  flapWindowMs: 15 * 60_000,
  withdrawnGpus: true,
  gpuHotC: 85,
  noFreeGpu: false,
});
