/**
 * The Lease as a lock (client-go's resourcelock.LeaseLock): get, create and update of one
 * coordination.k8s.io/v1 Lease over our ContextClient. Update sends back the Lease as read, spec replaced,
 * resourceVersion included, so of two replicas racing for the same lease the server accepts one and
 * answers the other 409.
 */

import { CONTROLLER_LEASE_NAME } from '../../common/settings.ts';
import { leasePath, leasesPath } from '../fleet/source/lease-poll.ts';
import type { ContextClient, KubeResponse } from '../kube/context-client.ts';
import { errorFromResponse } from '../kube/error-classify.ts';
import { KubeError } from '../kube/errors.ts';
import {
  type LeaderRecord,
  type LeaseAnnotations,
  leaseBody,
  leaseUpdateBody,
  type ObservedLease,
  parseLease,
} from './lease-record.ts';

/**
 * Above the largest object the API server stores (etcd's 1.5 MiB request limit): a Lease others made
 * big (annotations up to 256 KiB, a long holderIdentity) must still be read, or no replica could ever
 * take it over.
 */
export const LEASE_BODY_MAX = 2 << 20;

export interface LeaseLock {
  /** The Lease, or null when it does not exist. Throws KubeError. */
  get(): Promise<ObservedLease | null>;
  create(record: LeaderRecord, annotations?: LeaseAnnotations): Promise<ObservedLease>;
  /**
   * Writes `record` into the Lease as it was `seen` (only the spec replaced, the rest of the object kept).
   * Throws a KubeError of kind `conflict` when the Lease changed since `seen`'s resourceVersion.
   */
  update(record: LeaderRecord, seen: ObservedLease, annotations?: LeaseAnnotations): Promise<ObservedLease>;
  /** `namespace/name`, for log lines. */
  readonly description: string;
}

export function leaseLock(client: ContextClient, namespace: string, timeoutMs: number): LeaseLock {
  const lease = leasePath(namespace);
  const description = `${namespace}/${CONTROLLER_LEASE_NAME}`;
  const call = (method: string, path: string, body?: unknown): Promise<KubeResponse> =>
    client.request(method, path, {
      headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      timeoutMs,
      maxBodyBytes: LEASE_BODY_MAX,
    });
  const parsed = (res: KubeResponse, what: string): ObservedLease => {
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      throw new KubeError('protocol', `The API server did not answer with JSON while ${what}.`);
    }
    const lease = parseLease(json);
    if (typeof lease === 'string') throw new KubeError('protocol', `While ${what}, ${lease}.`);
    return lease;
  };
  const ok = (res: KubeResponse, what: string): ObservedLease => {
    if (res.status < 200 || res.status > 299)
      throw errorFromResponse(res.status, res.body, res.headers, what, client.server);
    return parsed(res, what);
  };
  return {
    description,
    async get() {
      const what = `reading Lease ${description}`;
      const res = await call('GET', lease);
      if (res.status === 404) return null;
      return ok(res, what);
    },
    async create(record, annotations) {
      const what = `creating Lease ${description}`;
      return ok(await call('POST', leasesPath(namespace), leaseBody(namespace, record, annotations)), what);
    },
    async update(record, seen, annotations) {
      const what = `updating Lease ${description}`;
      const body = leaseUpdateBody(seen, record, annotations);
      return ok(await call('PUT', lease, body), what);
    },
  };
}
