/**
 * The pure part of leader election, after client-go's tryAcquireOrRenew: given the Lease as last
 * observed and when this replica observed it change, may we write our record, and which one?
 *
 * Expiry is judged by the LOCAL time at which the record was last seen to change (observedAt), never
 * by the renewTime the holder wrote: that tolerates clock skew between replicas (only skew rate matters).
 */
import type { LeaderRecord } from './lease-record.ts';

export interface ElectionTiming {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's defaults for controllers (kube-controller-manager uses the same). */
export const DEFAULT_TIMING: ElectionTiming = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
};

const MAX_TIMING_MS = 24 * 3_600_000;

/**
 * The transition count after one more hand-over. LeaseSpec.leaseTransitions is an int32 the API server
 * refuses below 0; client-go's int32() conversion would wrap 2147483647 + 1 to -2147483648 and every
 * takeover would then be refused, so the count wraps to 0 instead.
 */
export function nextTransitions(t: number): number {
  return t >= INT32_MAX ? 0 : t + 1;
}
const INT32_MAX = 2 ** 31 - 1;

/** Why a timing would let a leader write after its lease can expire, or null when it is sound. */
export function timingProblem(t: ElectionTiming): string | null {
  if (!(t.retryPeriodMs > 0)) return 'the retry period must be positive';
  // Node fires a timer over 2^31-1 ms after 1 ms; no election needs a day.
  if (Math.max(t.leaseDurationMs, t.renewDeadlineMs, t.retryPeriodMs) > MAX_TIMING_MS)
    return 'the lease duration, renew deadline and retry period must each be 24h or less';
  if (t.renewDeadlineMs <= t.retryPeriodMs) return 'the renew deadline must be longer than the retry period';
  if (t.leaseDurationMs <= t.renewDeadlineMs)
    return 'the lease duration must be longer than the renew deadline';
  if (t.leaseDurationMs % 1000 !== 0) return 'the lease duration must be whole seconds';
  return null;
}

/** True while the observed holder's lease has not run out, measured from when we saw it change. */
export function leaseValid(record: LeaderRecord, observedAt: number, now: number): boolean {
  return observedAt + record.leaseDurationSeconds * 1000 > now;
}

export type Decision =
  /** Someone else holds an unexpired lease: wait. */
  | { kind: 'held'; holder: string }
  /** Write this record (create when there was no Lease, else update at the observed resourceVersion). */
  | { kind: 'write'; record: LeaderRecord; acquiring: boolean };

/**
 * What to do with the Lease as observed (null: it does not exist). A holder renewing keeps its
 * acquireTime and transition count; a new holder takes over an empty or expired lease and counts one
 * more transition.
 */
export function decide(
  observed: LeaderRecord | null,
  observedAt: number,
  identity: string,
  now: number,
  timing: ElectionTiming,
): Decision {
  const mine: LeaderRecord = {
    holderIdentity: identity,
    leaseDurationSeconds: Math.round(timing.leaseDurationMs / 1000),
    acquireTime: now,
    renewTime: now,
    leaseTransitions: 0,
  };
  if (observed === null) return { kind: 'write', record: mine, acquiring: true };
  const holder = observed.holderIdentity;
  if (holder !== '' && holder !== identity && leaseValid(observed, observedAt, now))
    return { kind: 'held', holder };
  if (holder === identity)
    return {
      kind: 'write',
      record: {
        ...mine,
        acquireTime: observed.acquireTime ?? now,
        leaseTransitions: observed.leaseTransitions,
      },
      acquiring: false,
    };
  return {
    kind: 'write',
    record: { ...mine, leaseTransitions: nextTransitions(observed.leaseTransitions) },
    acquiring: true,
  };
}

/**
 * The record that gives the lease up at once (client-go's ReleaseOnCancel): no holder, a one-second
 * duration, so every candidate may take it on its next try.
 */
export function releaseRecord(observed: LeaderRecord, now: number): LeaderRecord {
  return {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    acquireTime: now,
    renewTime: now,
    leaseTransitions: observed.leaseTransitions,
  };
}
