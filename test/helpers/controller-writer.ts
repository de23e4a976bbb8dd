/**
 * Writes into a simulator what the in-cluster controller's leader keeps there, by hand, over real HTTPS:
 * its Lease `gpu-fleet-controller` (created, then renewed by update with the resourceVersion, as
 * client-go's leader election does) and the `cluster` GpuInventory status (the write-back's own
 * server-side apply on the status subresource). Tests and the bench use it to stand in for the
 * controller without its code.
 */
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { CONTROLLER_LEASE_NAME, DEFAULT_CONTROLLER_NAMESPACE } from '../../common/settings.ts';
import { LEASE_FRESH_ANNOTATION } from '../../main/fleet/source/controller-objects.ts';
import { systemClock } from '../../main/kube/clock.ts';
import type { ContextClient } from '../../main/kube/context-client.ts';
import { installWriteback } from '../../main/writeback/install.ts';
import { applyObject } from '../../main/writeback/ssa.ts';
import { inventoryPath, STATUS_FIELD_MANAGER, statusApplyBody } from '../../main/writeback/status-writer.ts';

/** A Kubernetes MicroTime: RFC 3339 with exactly six fractional digits. */
export const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

async function send(client: ContextClient, method: string, path: string, body?: unknown) {
  const res = await client.request(method, path, {
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  });
  return {
    status: res.status,
    json: res.body.length > 0 ? (JSON.parse(res.body) as Record<string, unknown>) : {},
  };
}

export class LeaderStandIn {
  #rv: string | null = null;

  constructor(
    private readonly client: ContextClient,
    private readonly opts: {
      namespace?: string;
      holder?: string;
      durationSeconds?: number;
      group?: string;
    } = {},
  ) {}

  get namespace(): string {
    return this.opts.namespace ?? DEFAULT_CONTROLLER_NAMESPACE;
  }

  #leasePath(name = ''): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${this.namespace}/leases${name ? `/${name}` : ''}`;
  }

  /** The namespace, the Lease (renewed at `nowMs`), and the GpuInventory CRD and object. */
  async setUp(nowMs: number): Promise<void> {
    const ns = await send(this.client, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: this.namespace },
    });
    if (ns.status !== 201 && ns.status !== 409) throw new Error(`namespace: ${ns.status}`);
    await installWriteback(this.client, { group: this.opts.group ?? 'gpufleet.io', clock: systemClock });
    await this.renew(nowMs);
  }

  /**
   * Releases the Lease as client-go's leader election does on a clean shutdown (ReleaseOnCancel): no
   * holder, leaseDurationSeconds 1, renewTime now.
   */
  async release(nowMs: number): Promise<void> {
    await this.renew(nowMs, '', 1);
  }

  /**
   * Acquires (create) or renews (update with the last resourceVersion) the Lease, renewTime `nowMs`, the
   * freshness mark `freshAt` (default: `nowMs`, a healthy leader).
   */
  async renew(
    nowMs: number,
    holder = this.opts.holder ?? 'controller-0',
    durationSeconds = this.opts.durationSeconds ?? 15,
    freshAt: number | null = null,
  ): Promise<void> {
    const spec = {
      holderIdentity: holder,
      leaseDurationSeconds: durationSeconds,
      acquireTime: microTime(nowMs),
      renewTime: microTime(nowMs),
      leaseTransitions: 0,
    };
    // The leader's freshness mark moves with every renew of a healthy leader (controller/loop-health.ts).
    const meta = {
      name: CONTROLLER_LEASE_NAME,
      namespace: this.namespace,
      annotations: { [LEASE_FRESH_ANNOTATION]: microTime(freshAt ?? nowMs) },
    };
    const body = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec };
    const r =
      this.#rv === null
        ? await send(this.client, 'POST', this.#leasePath(), { ...body, metadata: meta })
        : await send(this.client, 'PUT', this.#leasePath(CONTROLLER_LEASE_NAME), {
            ...body,
            metadata: { ...meta, resourceVersion: this.#rv },
          });
    if (r.status !== 200 && r.status !== 201) throw new Error(`lease: ${r.status} ${JSON.stringify(r.json)}`);
    const md = r.json.metadata as { resourceVersion?: string } | undefined;
    this.#rv = md?.resourceVersion ?? null;
  }

  /** Writes the status as write-back does (SSA on /status, field manager gpu-fleet). */
  async writeStatus(status: GpuInventoryStatus): Promise<void> {
    const group = this.opts.group ?? 'gpufleet.io';
    await applyObject(
      this.client,
      `${inventoryPath(group, 'status')}`,
      statusApplyBody(group, status),
      STATUS_FIELD_MANAGER,
      {
        what: 'writing the GpuInventory status',
        missing: { phase: 'crd-missing', message: () => 'The GpuInventory CRD is not installed.' },
      },
    );
  }
}
