/**
 * The two objects the tray follows when it reads the in-cluster controller: the controller's Lease
 * (coordination.k8s.io/v1, `gpu-fleet-controller` in its namespace, read by GET: lease-poll.ts) and the
 * `cluster` GpuInventory of the configured group, a WatchedResource for the generic list+watch
 * machinery (kube/list-watcher.ts) narrowed by a field selector to the one object (write-back's
 * INVENTORY_OBJECT_NAME). Each trim validates what it keeps (hostile input): the Lease's holder, duration
 * and renew time, and the inventory status (read-status.ts).
 */
import { clusterText } from '../../../common/cluster-text.ts';
import type { GpuInventoryStatus } from '../../../common/inventory.ts';
import { isObj } from '../../../common/json-guards.ts';
import { CONTROLLER_LEASE_NAME } from '../../../common/settings.ts';
import type { WatchedResource } from '../../kube/watched-resource.ts';
import { INVENTORY_OBJECT_NAME } from '../../writeback/crd.ts';
import { readInventoryStatus, rfc3339 } from './read-status.ts';

/**
 * The annotation on the Lease where the leader keeps the last time it knew its GpuInventory status was
 * current (node watch live, last write not refused; controller/loop-health.ts). It changes only on a
 * renew, so it costs no write of its own and reaches no tray that does not read the Lease.
 */
export const LEASE_FRESH_ANNOTATION = 'gpufleet.io/status-fresh-at';

/** client-go allows any positive duration; an hour is far past any leader election's. */
const MAX_LEASE_SECONDS = 3600;

export interface LeaseFacts {
  name: string;
  /** Who holds it; null when released (a controller that shut down cleanly empties it). */
  holder: string | null;
  durationSeconds: number | null;
  /** renewTime in epoch ms; null when absent or not a time. */
  renewedAt: number | null;
  /** The LEASE_FRESH_ANNOTATION in epoch ms; null when absent or not a time. */
  freshAt: number | null;
}

export interface InventoryFacts {
  name: string;
  /** Null when there is no usable status; `problem` says why. */
  status: GpuInventoryStatus | null;
  problem: string | null;
  /** Entries left out because they were not valid. */
  dropped: number;
}

const nameOf = (raw: unknown): string | null => {
  const meta = isObj(raw) && isObj(raw.metadata) ? raw.metadata : null;
  return meta && typeof meta.name === 'string' && meta.name.length <= 253 ? meta.name : null;
};

export function trimLease(raw: unknown): LeaseFacts | null {
  const name = nameOf(raw);
  if (name !== CONTROLLER_LEASE_NAME || !isObj(raw)) return null;
  const spec = isObj(raw.spec) ? raw.spec : {};
  const holder =
    typeof spec.holderIdentity === 'string' ? clusterText(spec.holderIdentity, 253) || null : null;
  const d = spec.leaseDurationSeconds;
  const durationSeconds =
    typeof d === 'number' && Number.isInteger(d) && d > 0 && d <= MAX_LEASE_SECONDS ? d : null;
  const renew = rfc3339(spec.renewTime);
  const meta = isObj(raw.metadata) ? raw.metadata : {};
  const fresh = rfc3339(isObj(meta.annotations) ? meta.annotations[LEASE_FRESH_ANNOTATION] : undefined);
  return {
    name,
    holder,
    durationSeconds,
    renewedAt: renew === null ? null : Date.parse(renew),
    freshAt: fresh === null ? null : Date.parse(fresh),
  };
}

export function trimInventory(raw: unknown): InventoryFacts | null {
  const name = nameOf(raw);
  if (name !== INVENTORY_OBJECT_NAME || !isObj(raw)) return null;
  const read = readInventoryStatus(raw.status);
  return read.ok
    ? { name, status: read.status, problem: null, dropped: read.dropped }
    : { name, status: null, problem: read.reason, dropped: 0 };
}

/** The `cluster` GpuInventory of `group` (cluster-scoped, plural gpuinventories, version v1). */
export function inventoryResource(group: string): WatchedResource<InventoryFacts> {
  return {
    path: `/apis/${encodeURIComponent(group)}/v1/gpuinventories`,
    fieldSelector: `metadata.name=${INVENTORY_OBJECT_NAME}`,
    singular: 'GpuInventory',
    plural: 'GpuInventories',
    trim: trimInventory,
    nameOf: (i) => i.name,
    // The status is what matters; an identical one (a metadata-only update) is no change.
    same: (a, b) => a.problem === b.problem && JSON.stringify(a.status) === JSON.stringify(b.status),
  };
}
