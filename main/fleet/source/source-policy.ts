/**
 * Which source a context reads, decided from what the controller's Lease and GpuInventory look like
 * now. Pure: the caller (controller-feed.ts) observes, calls decide() on every change and at the
 * returned nextCheckAt, and acts on the result.
 *
 * - The Lease is fresh while it has a holder and its renewTime was renewed within 2 × its
 *   leaseDurationSeconds of now. "Renewed" is judged on our clock (as client-go's leader election
 *   does): the first sighting counts from renewTime itself (never later than now), every later change
 *   of renewTime from the moment we saw it, so a controller whose clock runs behind or ahead of ours
 *   is neither dropped nor trusted forever.
 * - A renewed Lease proves only the leader's election loop. The leader also keeps a freshness mark in
 *   the Lease (LEASE_FRESH_ANNOTATION: when it last knew its status current); the controller counts as
 *   usable only while that mark, counted on our clock the same way, is within 2 × leaseDurationSeconds
 *   too. A Lease without the mark vouches for nothing.
 * - `auto` reads the controller when the Lease is fresh and the GpuInventory has a valid status, else
 *   nodes. The first decision takes a fresh controller at once; after a fall-back to nodes it goes back
 *   only when the Lease has been fresh without a gap for RETURN_FRESH_MS and nodes were watched for at
 *   least MIN_NODES_MS (a controller that keeps restarting cannot make the tray flap between sources).
 *   Falling back needs no extra wait: a stale Lease has already gone unrenewed for 2 × its duration.
 * - A Lease with no holder is a hand-over (a controller releases it on a clean shutdown, as in a
 *   rollout): a source that reads the controller keeps its last valid status for HANDOVER_MS from when
 *   we first saw the release, waiting for a new holder, and only then falls back (the released record's
 *   own leaseDurationSeconds is 1 s, so it says nothing about how long to wait). A first pick during a
 *   hand-over takes the valid status the same way; watching nodes, a hand-over is no reason to go back.
 * - `controller` never watches nodes: without a usable controller the source is none, and says why.
 * - `nodes` is the app watching every Node itself.
 */
import type { InventorySource } from '../../../common/settings.ts';
import { CONTROLLER_LEASE_NAME } from '../../../common/settings.ts';
import { LEASE_FRESH_ANNOTATION } from './controller-objects.ts';

/** How long auto waits for the first look at the Lease and the GpuInventory before it watches nodes. */
export const DECIDE_WITHIN_MS = 10_000;
export const RETURN_FRESH_MS = 30_000;
export const MIN_NODES_MS = 60_000;
/** How long a released Lease is waited on for a new holder: client-go's default leaseDuration. */
export const HANDOVER_MS = 15_000;

/** What one of the two objects looks like: not listed yet, listed and absent, unreadable, or there. */
export type Seen =
  | { kind: 'pending' }
  | { kind: 'missing' }
  | { kind: 'unreadable'; why: string }
  | { kind: 'present' };

export interface LeaseView {
  seen: Seen;
  holder: string | null;
  durationSeconds: number | null;
  /** When we count the Lease as last renewed (see the module comment); null when never. */
  renewedAt: number | null;
  /** When we count the leader's freshness mark as last moved, likewise; null when the Lease has none. */
  freshAt: number | null;
  /** When we first saw it with no holder (our clock); null while it has one. */
  releasedAt: number | null;
}

export interface InventoryView {
  /** `present` only with a valid status; `problem` then null. */
  seen: Seen;
  problem: string | null;
}

export interface PolicyInput {
  setting: InventorySource;
  now: number;
  startedAt: number;
  namespace: string;
  group: string;
  lease: LeaseView;
  inventory: InventoryView;
}

export interface PolicyState {
  active: 'controller' | 'nodes' | null;
  /** When `active` last changed. */
  since: number;
  /** Since when the controller has been usable without a gap; null when it is not. */
  usableSince: number | null;
  /** Whether a source was ever chosen (the first choice needs no hysteresis). */
  decided: boolean;
}

export interface Decision {
  state: PolicyState;
  /** One sentence when the source is not the controller the setting hoped for (or about to change). */
  message: string | null;
  /** Decide again at this time even if nothing is observed (a Lease going stale sends no event). */
  nextCheckAt: number | null;
}

export const INITIAL_POLICY: PolicyState = { active: null, since: 0, usableSince: null, decided: false };

/** ms after which the Lease counts as stale, or null when it cannot be fresh at all. */
export function staleAt(lease: LeaseView): number | null {
  if (lease.seen.kind !== 'present' || lease.holder === null) return null;
  if (lease.durationSeconds === null || lease.renewedAt === null || lease.freshAt === null) return null;
  return Math.min(lease.renewedAt, lease.freshAt) + 2 * lease.durationSeconds * 1000;
}

/**
 * When the leader's freshness mark gets old for the figures a tray shows from the status (free GPUs):
 * one lease duration after it last moved (it moves with every renew while the leader knows its status
 * current; the source itself is given up only at 2 ×). Null: old already (no mark, no holder, no Lease).
 */
export function freshMarkOldAt(lease: LeaseView | null): number | null {
  if (lease === null || lease.seen.kind !== 'present' || lease.holder === null) return null;
  if (lease.durationSeconds === null || lease.freshAt === null) return null;
  return lease.freshAt + lease.durationSeconds * 1000;
}

/** True while the only thing missing is a first answer (the Lease or the GpuInventory not listed yet). */
function onlyPending(i: PolicyInput, why: string | null): boolean {
  if (why === null) return false;
  return i.lease.seen.kind === 'pending' || why === PENDING_INVENTORY;
}

const PENDING_INVENTORY = 'the controller GpuInventory has not been read yet';

/** When a hand-over that is still being waited on ends, or null when the Lease is not released or the wait is over. */
export function handoverEndsAt(i: PolicyInput): number | null {
  const { lease } = i;
  if (lease.seen.kind !== 'present' || lease.holder !== null || lease.releasedAt === null) return null;
  const end = lease.releasedAt + HANDOVER_MS;
  return i.now < end ? end : null;
}

/**
 * Why the controller cannot be read now (a sentence fragment), or null when it can. `handingOver`: the
 * Lease was released less than HANDOVER_MS ago, and only the GpuInventory is judged.
 */
export function unusable(i: PolicyInput, handingOver = false): string | null {
  const { lease } = i;
  const where = `Lease ${CONTROLLER_LEASE_NAME} in namespace ${i.namespace}`;
  if (lease.seen.kind === 'pending') return 'the controller Lease has not been read yet';
  if (lease.seen.kind === 'missing') return `no in-cluster controller was found (no ${where})`;
  if (lease.seen.kind === 'unreadable') return `the controller ${where} cannot be read (${lease.seen.why})`;
  if (handingOver) return inventoryUnusable(i);
  if (lease.holder === null)
    return handoverEndsAt(i) === null
      ? `the in-cluster controller released its Lease and no new holder took it within ${HANDOVER_MS / 1000} s`
      : 'the in-cluster controller released its Lease and no new holder has taken it yet';
  if (lease.durationSeconds === null || lease.renewedAt === null)
    return `the controller ${where} has no valid leaseDurationSeconds or renewTime`;
  if (lease.freshAt === null)
    return `the controller ${where} does not say when its status was last current (no ${LEASE_FRESH_ANNOTATION} annotation)`;
  const limit = 2 * lease.durationSeconds * 1000;
  if (i.now >= lease.renewedAt + limit) {
    const ago = Math.round((i.now - lease.renewedAt) / 1000);
    return `the in-cluster controller stopped renewing its Lease (last renewed ${ago} s ago, more than 2 × ${lease.durationSeconds} s)`;
  }
  if (i.now >= lease.freshAt + limit) {
    const ago = Math.round((i.now - lease.freshAt) / 1000);
    return `the in-cluster controller has not known its status to be current for ${ago} s (its node watch or its writes are failing; more than 2 × ${lease.durationSeconds} s)`;
  }
  return inventoryUnusable(i);
}

function inventoryUnusable(i: PolicyInput): string | null {
  const { inventory } = i;
  if (inventory.seen.kind === 'pending') return PENDING_INVENTORY;
  if (inventory.seen.kind === 'missing')
    return `the in-cluster controller has written no GpuInventory "cluster" in group ${i.group}`;
  if (inventory.seen.kind === 'unreadable')
    return `the controller GpuInventory cannot be read (${inventory.seen.why})`;
  if (inventory.problem !== null) return `the in-cluster controller's ${inventory.problem}`;
  return null;
}

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function decide(state: PolicyState, i: PolicyInput): Decision {
  // A hand-over keeps (or, as the first pick, takes) the controller while its GpuInventory is valid;
  // it never counts towards going back from nodes.
  const handover = handoverEndsAt(i);
  const waiting =
    handover !== null && i.setting !== 'nodes' && (state.active === 'controller' || !state.decided);
  const why = unusable(i, waiting);
  if (waiting && why === null) {
    const held: PolicyState = {
      active: 'controller',
      since: state.active === 'controller' ? state.since : i.now,
      usableSince: state.usableSince,
      decided: true,
    };
    return { state: held, message: null, nextCheckAt: handover };
  }
  const usableSince = why === null ? (state.usableSince ?? i.now) : null;
  const to = (active: PolicyState['active']): PolicyState => ({
    active,
    since: active === state.active ? state.since : i.now,
    usableSince,
    decided: state.decided || active !== null,
  });
  const stale = why === null ? staleAt(i.lease) : null;
  if (i.setting === 'nodes') return { state: to('nodes'), message: null, nextCheckAt: null };
  if (i.setting === 'controller') {
    const next = to(why === null ? 'controller' : null);
    const message =
      why === null ? null : `${upper(why)}; the source is set to controller, so nodes are not watched.`;
    return { state: next, message, nextCheckAt: stale };
  }
  // auto
  const fallback = `${upper(why ?? '')}; watching nodes directly.`;
  if (!state.decided) {
    if (onlyPending(i, why) && i.now - i.startedAt < DECIDE_WITHIN_MS)
      return { state: to(null), message: null, nextCheckAt: i.startedAt + DECIDE_WITHIN_MS };
    if (why === null) return { state: to('controller'), message: null, nextCheckAt: stale };
    return { state: to('nodes'), message: fallback, nextCheckAt: null };
  }
  if (why !== null) return { state: to('nodes'), message: fallback, nextCheckAt: null };
  if (state.active === 'controller') return { state: to('controller'), message: null, nextCheckAt: stale };
  const returnAt = Math.max((usableSince ?? i.now) + RETURN_FRESH_MS, state.since + MIN_NODES_MS);
  if (i.now >= returnAt) return { state: to('controller'), message: null, nextCheckAt: stale };
  return {
    state: to('nodes'),
    message: `The in-cluster controller is back; watching nodes until its Lease has been renewed steadily for ${RETURN_FRESH_MS / 1000} s.`,
    nextCheckAt: stale === null ? returnAt : Math.min(returnAt, stale + 1),
  };
}
