/**
 * Pure: the fleet's numbers for the overview's headline, and the header's state, which keeps health and
 * an alert pause as two facts ("3 GPU nodes down · alerts paused until 14:00"): a pause silences
 * notifications, it does not make a down node ready.
 */
import type { ContextSnapshot, FleetHealth, FleetSnapshot } from '../../common/fleet.ts';
import { fleetHealth, isErrorPhase } from '../../common/health.ts';
import type { Translator } from '../../common/i18n/translator.ts';
import { pauseEndText } from '../../common/pause-text.ts';
import { FLEET_HEALTH_KEYS } from './contexts.ts';

export interface FleetNumbers {
  /** Over the contexts that have an inventory (an unreachable one counts with its last known). */
  ready: number;
  total: number;
  gpus: number;
  clusters: number;
  /** Contexts that cannot be read now. */
  unreachable: number;
}

export function fleetNumbers(contexts: readonly ContextSnapshot[]): FleetNumbers {
  const n: FleetNumbers = { ready: 0, total: 0, gpus: 0, clusters: contexts.length, unreachable: 0 };
  for (const c of contexts) {
    if (isErrorPhase(c.connection.phase)) n.unreachable++;
    const inv = c.inventory;
    if (!inv) continue;
    n.ready += inv.ready_gpu_nodes;
    n.total += inv.total_gpu_nodes;
    n.gpus += inv.total_gpus;
  }
  return n;
}

/** GPU nodes known down now: unreachable contexts' last-known numbers are not counted as down. */
export function downNodes(contexts: readonly ContextSnapshot[]): number {
  let down = 0;
  for (const c of contexts) {
    if (!c.inventory || isErrorPhase(c.connection.phase)) continue;
    down += c.inventory.total_gpu_nodes - c.inventory.ready_gpu_nodes;
  }
  return down;
}

export interface HeaderState {
  /** The fleet's health as if nothing were paused. */
  health: Exclude<FleetHealth, 'paused'>;
  text: string;
  /** The pause, worded; null when nothing is paused. */
  pause: string | null;
}

export function headerState(snapshot: FleetSnapshot, now: number, tr: Translator): HeaderState {
  const health = fleetHealth(snapshot.contexts, false) as Exclude<FleetHealth, 'paused'>;
  const down = downNodes(snapshot.contexts);
  const text =
    (health === 'down' || health === 'degraded') && down > 0
      ? tr.t('clusterPause.nodesDown', { count: down })
      : tr.t(FLEET_HEALTH_KEYS[health]);
  let pause: string | null = null;
  const all = snapshot.alertsPausedUntil;
  if (all !== null) {
    pause = tr.t('clusterPause.headerPaused', { until: pauseEndText(all, now, tr) ?? '' });
  } else {
    const some = snapshot.contexts.filter((c) => c.alertsPausedUntil !== undefined).map((c) => c.context);
    if (some.length > 0) pause = tr.t('clusterPause.headerPausedSome', { contexts: tr.list(some) });
  }
  return { health, text, pause };
}
