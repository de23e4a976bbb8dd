/**
 * Pure: the part of a fleet snapshot the tray shows, made in the engine host so the shell's process
 * receives a few hundred bytes instead of every node: per context its counts and the first down nodes.
 */
import type { ConnectionState } from '../../../common/connection.ts';
import type { ContextSnapshot, FleetHealth, FleetSnapshot } from '../../../common/fleet.ts';
import type { GpuNodeEntry } from '../../../common/inventory.ts';
import { type TrayFree, trayFree } from './tray-free.ts';

/** One context as the tray shows it: its counts and at most a few down nodes, never the whole list. */
export interface TrayContext {
  context: string;
  connection: Pick<ConnectionState, 'phase'>;
  inventory: { ready_gpu_nodes: number; total_gpu_nodes: number; total_gpus: number } | null;
  /** The first down GPU nodes, in inventory order (at most the tray's line limit). */
  down: GpuNodeEntry[];
  /** How many GPU nodes are down in all. */
  downCount: number;
  /** This context's own alert pause (as ContextSnapshot.alertsPausedUntil), null when it has none. */
  pausedUntil: string | null;
  /** Free GPUs in short (tray-free.ts); null when the snapshot has none (the controller is read). */
  free: TrayFree | null;
  /** GPU nodes held as flapping (ContextSnapshot.flapping): the icon's "degraded" is theirs. */
  flapping: string[];
}

/** The fleet as the tray needs it (trayFleet makes it from a FleetSnapshot). */
export interface TrayFleet {
  contexts: TrayContext[];
  focused: string | null;
  alertsPausedUntil: string | null;
  health: FleetHealth;
  /** When the snapshot was made (epoch ms): "now" for the pause texts, so the model stays pure. */
  now: number;
}

/** Down GPU nodes listed under a context in the menu; the rest are counted. */
export const TRAY_DOWN_NODES_MAX = 5;

export function trayContext(ctx: ContextSnapshot): TrayContext {
  const inv = ctx.inventory;
  const down = inv ? inv.nodes.filter((n) => !n.ready) : [];
  return {
    context: ctx.context,
    connection: { phase: ctx.connection.phase },
    inventory: inv
      ? {
          ready_gpu_nodes: inv.ready_gpu_nodes,
          total_gpu_nodes: inv.total_gpu_nodes,
          total_gpus: inv.total_gpus,
        }
      : null,
    down: down.slice(0, TRAY_DOWN_NODES_MAX),
    downCount: down.length,
    pausedUntil: ctx.alertsPausedUntil ?? null,
    free: ctx.free ? trayFree(ctx.free) : null,
    flapping: (ctx.flapping ?? []).slice(0, TRAY_DOWN_NODES_MAX),
  };
}

export function trayFleet(snapshot: FleetSnapshot): TrayFleet {
  return {
    contexts: snapshot.contexts.map(trayContext),
    focused: snapshot.focused,
    alertsPausedUntil: snapshot.alertsPausedUntil,
    health: snapshot.health,
    now: Date.parse(snapshot.generatedAt),
  };
}
