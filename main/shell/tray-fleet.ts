/**
 * Pure: the part of a fleet snapshot the tray shows, made in the engine host so the shell's process
 * receives a few hundred bytes instead of every node: per context its counts and the first down nodes.
 */
import type { ContextSnapshot, FleetSnapshot } from '../../common/fleet.ts';
import type { TrayContext, TrayFleet } from '../../common/host-protocol.ts';

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
  };
}

export function trayFleet(snapshot: FleetSnapshot): TrayFleet {
  return {
    contexts: snapshot.contexts.map(trayContext),
    focused: snapshot.focused,
    alertsPausedUntil: snapshot.alertsPausedUntil,
    health: snapshot.health,
  };
}
