/** What a context monitor says about its source: the settings it follows and the SourceState it shows. */
import type { SourceState } from '../../../common/fleet.ts';
import type { InventorySource } from '../../../common/settings.ts';
import type { ControllerFeed } from './controller-feed.ts';

export interface SourceConfig {
  setting: InventorySource;
  /** Namespace of the controller's Lease. */
  namespace: string;
  /** API group of the GpuInventory. */
  group: string;
  /** How often the controller's Lease is read (default LEASE_POLL_MS; the bench compresses time). */
  leasePollMs?: number | undefined;
}

export function sourceState(
  config: SourceConfig | undefined,
  active: SourceState['active'],
  feed: ControllerFeed | null,
  /** Write-back is on for the context but paused: the controller writes the GpuInventory. */
  writebackPaused: boolean,
): SourceState {
  const status = active === 'controller' ? (feed?.inventory ?? null) : null;
  const omitted = status?.nodes_omitted ?? 0;
  const lease = feed?.lease ?? null;
  return {
    setting: config?.setting ?? 'nodes',
    active,
    message: feed?.message ?? null,
    ...(writebackPaused ? { writebackPaused: true } : {}),
    ...(status?.nodes_compacted === true ? { compacted: true } : {}),
    ...(omitted > 0 ? { omitted } : {}),
    ...(lease
      ? {
          holder: lease.holder,
          renewedAt: lease.renewedAt === null ? null : new Date(lease.renewedAt).toISOString(),
        }
      : {}),
  };
}
