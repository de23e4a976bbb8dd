/**
 * The setup the write-back fault tests share: a simulator with a client on it (both cleaned up after
 * the test), the CRD installed or not, the inventory a scan of it gives, and a ContextWriteback on that
 * client with the tests' defaults (context sim-admin, kube-system, 10 ms between writes).
 */
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { scanContext } from '../../main/cli/commands/scan.ts';
import { type Clock, systemClock } from '../../main/kube/clock.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { buildCrd, crdName } from '../../main/writeback/crd.ts';
import {
  ContextWriteback,
  type ContextWritebackOptions,
  DEFAULT_CRD_GROUP,
  installWriteback,
  type WriteEvent,
} from '../../main/writeback/index.ts';
import type { SimOptions } from '../../sim/index.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';
import type { Cleanup } from './scope.ts';

export const WB_NAMESPACE = 'kube-system';

type Register = (...fns: Cleanup[]) => void;

export interface WritebackSim {
  s: SimContext;
  /** A client of sim-admin, closed after the test. */
  client: ContextClient;
  /** What a scan of the sim reads now. */
  inventory: GpuInventoryStatus;
}

/** Starts the sim, opens a client, installs the CRD (unless `install` is false) and scans once. */
export async function startWritebackSim(
  cleanup: Register,
  options: SimOptions = { scenario: 'homelab' },
  install = true,
): Promise<WritebackSim> {
  const s = await startSimContext(options);
  cleanup(() => s.cleanup());
  const client = new ContextClient(s.context());
  cleanup(() => client.close());
  if (install) await installWriteback(client, { group: DEFAULT_CRD_GROUP, clock: systemClock });
  const scanned = await scanContext(s.context());
  if (!scanned.inventory) throw new Error(scanned.error ?? 'no inventory');
  return { s, client, inventory: scanned.inventory };
}

/** A ContextWriteback of sim-admin on `client`, stopped after the test; `extra` overrides the defaults. */
export function startWriter(
  cleanup: Register,
  client: ContextClient,
  onEvent: (e: WriteEvent) => void,
  extra: Partial<Omit<ContextWritebackOptions, 'client'>> & { clock?: Clock } = {},
): ContextWriteback {
  const writer = new ContextWriteback(
    {
      context: 'sim-admin',
      client,
      group: DEFAULT_CRD_GROUP,
      configMapNamespace: WB_NAMESPACE,
      clock: systemClock,
      minIntervalMs: 10,
      ...extra,
    },
    onEvent,
  );
  cleanup(() => writer.stop());
  return writer;
}

/** GET `path` as JSON, typed as the objects these tests read (a ConfigMap or the GpuInventory). */
export async function getObject(client: ContextClient, path: string) {
  const r = await client.request('GET', path, { headers: { Accept: 'application/json' } });
  return JSON.parse(r.body) as {
    metadata: { labels?: Record<string, string> };
    data: Record<string, string>;
    status?: GpuInventoryStatus;
  };
}

/** The GpuInventory CRD of our name whose status.total_gpus is a string: "another operator's schema". */
export function otherSchemaCrd() {
  const crd = buildCrd(DEFAULT_CRD_GROUP);
  const v = crd.spec.versions[0];
  if (!v) throw new Error('no version');
  const status = structuredClone(v.schema.openAPIV3Schema.properties.status);
  if (status.properties?.total_gpus) status.properties.total_gpus = { type: 'string' };
  return {
    ...crd,
    metadata: { name: crdName(DEFAULT_CRD_GROUP) },
    spec: {
      ...crd.spec,
      versions: [
        {
          ...v,
          schema: {
            openAPIV3Schema: {
              ...v.schema.openAPIV3Schema,
              properties: { ...v.schema.openAPIV3Schema.properties, status },
            },
          },
        },
      ],
    },
  };
}
