/**
 * The leader-election record kept in a coordination.k8s.io/v1 Lease (client-go's resourcelock
 * LeaderElectionRecord ↔ LeaseSpec), read from a hostile answer and written back as a Lease body.
 * Times are MicroTime: RFC 3339 with exactly six fractional digits, in UTC.
 */
import { asRecord, isObj, str } from '../../common/json-guards.ts';

export const LEASE_NAME = 'gpu-fleet-controller';
export const LEASE_API = 'coordination.k8s.io/v1';

/** Identities are pod names (≤ 253) in practice; a longer one from the server is cut, never trusted whole. */
const IDENTITY_MAX = 253;

export interface LeaderRecord {
  /** Empty: no one holds the lease (never acquired, or released). */
  holderIdentity: string;
  leaseDurationSeconds: number;
  /** Epoch ms, or null when the Lease has none. */
  acquireTime: number | null;
  renewTime: number | null;
  leaseTransitions: number;
}

/** A Lease as read: its record, the resourceVersion to update it with, and the spec as raw JSON. */
export interface ObservedLease {
  record: LeaderRecord;
  resourceVersion: string;
  /** The spec serialized; a change here (a renew, a new holder) is what restarts the expiry clock. */
  raw: string;
}

/** `2026-11-29T12:00:00.123000Z`: Go's metav1.MicroTime format. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function parseTime(v: unknown): number | null {
  const s = str(v);
  if (s === null || s.length > 64) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
}

function nonNegativeInt(v: unknown, max: number): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max ? v : null;
}

/**
 * The record of a Lease object, or a sentence saying why it is not one. Missing optional fields read as
 * client-go reads them (empty holder, zero transitions); a wrong type is refused rather than guessed.
 */
export function parseLease(body: unknown): ObservedLease | string {
  if (!isObj(body) || body.kind !== 'Lease') return 'the answer is not a Lease';
  const meta = asRecord(body.metadata);
  const rv = str(meta.resourceVersion);
  if (rv === null || rv === '' || rv.length > 64) return 'the Lease has no resourceVersion';
  const spec = asRecord(body.spec);
  const holder = spec.holderIdentity === undefined ? '' : str(spec.holderIdentity);
  if (holder === null) return 'the Lease holderIdentity is not a string';
  const duration =
    spec.leaseDurationSeconds === undefined ? 0 : nonNegativeInt(spec.leaseDurationSeconds, 1 << 30);
  if (duration === null) return 'the Lease leaseDurationSeconds is not a non-negative integer';
  const transitions =
    spec.leaseTransitions === undefined ? 0 : nonNegativeInt(spec.leaseTransitions, 2 ** 31 - 1);
  if (transitions === null) return 'the Lease leaseTransitions is not a non-negative integer';
  const record: LeaderRecord = {
    holderIdentity: holder.slice(0, IDENTITY_MAX),
    leaseDurationSeconds: duration,
    acquireTime: parseTime(spec.acquireTime),
    renewTime: parseTime(spec.renewTime),
    leaseTransitions: transitions,
  };
  return { record, resourceVersion: rv, raw: JSON.stringify(spec) };
}

/** The LeaseSpec of a record (times as MicroTime). */
export function leaseSpec(r: LeaderRecord): Record<string, unknown> {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    ...(r.acquireTime !== null ? { acquireTime: microTime(r.acquireTime) } : {}),
    ...(r.renewTime !== null ? { renewTime: microTime(r.renewTime) } : {}),
    leaseTransitions: r.leaseTransitions,
  };
}

/** A whole Lease body for create (no resourceVersion) or update (with the one it was read at). */
export function leaseBody(
  namespace: string,
  r: LeaderRecord,
  resourceVersion: string | null,
): Record<string, unknown> {
  return {
    apiVersion: LEASE_API,
    kind: 'Lease',
    metadata: {
      name: LEASE_NAME,
      namespace,
      labels: { 'app.kubernetes.io/name': 'gpu-fleet', 'app.kubernetes.io/component': 'controller' },
      ...(resourceVersion !== null ? { resourceVersion } : {}),
    },
    spec: leaseSpec(r),
  };
}
