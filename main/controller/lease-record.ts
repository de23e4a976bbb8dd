/**
 * The leader-election record kept in a coordination.k8s.io/v1 Lease (client-go's resourcelock
 * LeaderElectionRecord ↔ LeaseSpec), read from a hostile answer and written back as a Lease body.
 * Times are MicroTime: RFC 3339 with exactly six fractional digits, in UTC.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { asRecord, isObj, str } from '../../common/json-guards.ts';
import { CONTROLLER_LEASE_NAME } from '../../common/settings.ts';

export const LEASE_API = 'coordination.k8s.io/v1';

/** Our own identity's longest (a pod name's); one from the server is kept whole, so a longer one is never ours. */
const IDENTITY_MAX = 253;

/**
 * client-go's default identity: the host name, "_" and a random UUID, so two controllers on one host
 * (or two pods given the same host name) never share an id and both believe they lead.
 */
export function defaultIdentity(): string {
  return `${os.hostname()}_${randomUUID()}`;
}

/** `id` quoted with everything but printable ASCII escaped (an id may carry a bidi override), capped. */
function shown(id: string): string {
  const q = JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id);
  return q.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Why `id` cannot be this replica's identity, or null. It goes into the Lease and into the User-Agent
 * header of every request, and Node refuses a header with characters outside Latin-1 or with controls
 * ("Invalid character in header content"), so only printable ASCII is taken.
 */
export function identityProblem(id: string): string | null {
  if (id === '' || id.length > IDENTITY_MAX || !/^[\x21-\x7e]+$/.test(id))
    return `${shown(id)} cannot be used as --id: use the pod name (1-${IDENTITY_MAX} printable ASCII characters, no spaces; it is sent in request headers)`;
  return null;
}

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
  /**
   * The whole object as read (its size capped by the read). An update sends it back with only the spec
   * replaced, as client-go's LeaseLock does, so labels, annotations and ownerReferences others added
   * survive a renew; the server validates what comes back.
   */
  object: Record<string, unknown>;
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
    holderIdentity: holder,
    leaseDurationSeconds: duration,
    acquireTime: parseTime(spec.acquireTime),
    renewTime: parseTime(spec.renewTime),
    leaseTransitions: transitions,
  };
  return { record, resourceVersion: rv, raw: JSON.stringify(spec), object: body };
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

/** The labels of everything the controller's manifests and its Lease carry. */
export const CONTROLLER_LABELS = {
  'app.kubernetes.io/name': 'gpu-fleet',
  'app.kubernetes.io/component': 'controller',
} as const;

/** Annotations the leader sets on every write of the Lease (its freshness mark), over the Lease's own. */
export type LeaseAnnotations = Readonly<Record<string, string>>;

/** The Lease body for create. */
export function leaseBody(
  namespace: string,
  r: LeaderRecord,
  annotations: LeaseAnnotations = {},
): Record<string, unknown> {
  return {
    apiVersion: LEASE_API,
    kind: 'Lease',
    metadata: {
      name: CONTROLLER_LEASE_NAME,
      namespace,
      labels: { ...CONTROLLER_LABELS },
      ...(Object.keys(annotations).length > 0 ? { annotations: { ...annotations } } : {}),
    },
    spec: leaseSpec(r),
  };
}

/**
 * The body of an update: the Lease as it was read (its metadata, resourceVersion included, kept whole)
 * with the spec replaced and our labels and annotations set over its own (client-go's LeaseLock.Update
 * with Labels).
 */
export function leaseUpdateBody(
  seen: ObservedLease,
  r: LeaderRecord,
  annotations: LeaseAnnotations = {},
): Record<string, unknown> {
  const meta = asRecord(seen.object.metadata);
  const merged = { ...asRecord(meta.annotations), ...annotations };
  return {
    ...seen.object,
    metadata: {
      ...meta,
      labels: { ...asRecord(meta.labels), ...CONTROLLER_LABELS },
      ...(Object.keys(merged).length > 0 ? { annotations: merged } : {}),
    },
    spec: leaseSpec(r),
  };
}
