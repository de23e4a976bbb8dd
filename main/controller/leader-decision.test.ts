import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TIMING,
  decide,
  leaseValid,
  nextTransitions,
  releaseRecord,
  timingProblem,
} from './leader-decision.ts';
import type { LeaderRecord } from './lease-record.ts';

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const held = (holder: string, extra: Partial<LeaderRecord> = {}): LeaderRecord => ({
  holderIdentity: holder,
  leaseDurationSeconds: 15,
  acquireTime: T0 - 60_000,
  renewTime: T0 - 1000,
  leaseTransitions: 3,
  ...extra,
});

describe('decide (client-go tryAcquireOrRenew)', () => {
  it('creates a missing Lease with us as holder and no transitions', () => {
    expect(decide(null, 0, 'a', T0, DEFAULT_TIMING)).toEqual({
      kind: 'write',
      acquiring: true,
      record: {
        holderIdentity: 'a',
        leaseDurationSeconds: 15,
        acquireTime: T0,
        renewTime: T0,
        leaseTransitions: 0,
      },
    });
  });

  it.each([
    ['observed 1 s ago', T0 - 1000, 'held'],
    ['observed 14.999 s ago', T0 - 14_999, 'held'],
    // Exactly a lease duration since we saw it change: expired (client-go: observedTime+duration After now).
    ['observed 15 s ago', T0 - 15_000, 'write'],
    ['observed 20 s ago', T0 - 20_000, 'write'],
  ])('another holder %s: %s', (_what, observedAt, kind) => {
    expect(decide(held('b'), observedAt, 'a', T0, DEFAULT_TIMING).kind).toBe(kind);
  });

  it('times expiry from when WE observed the record, not from the renewTime the holder wrote', () => {
    // The holder's clock is an hour behind: its renewTime looks ancient, but we saw it change just now.
    const skewed = held('b', { renewTime: T0 - 3_600_000 });
    expect(decide(skewed, T0 - 500, 'a', T0, DEFAULT_TIMING).kind).toBe('held');
  });

  it('taking over an expired lease counts one more transition and sets a new acquireTime', () => {
    const d = decide(held('b'), T0 - 20_000, 'a', T0, DEFAULT_TIMING);
    expect(d).toMatchObject({ kind: 'write', acquiring: true });
    if (d.kind === 'write')
      expect(d.record).toMatchObject({ holderIdentity: 'a', leaseTransitions: 4, acquireTime: T0 });
  });

  it('a released (empty) lease is taken at once, even though it was observed just now', () => {
    const released = releaseRecord(held('b'), T0 - 100);
    const d = decide(released, T0 - 100, 'a', T0, DEFAULT_TIMING);
    expect(d).toMatchObject({
      kind: 'write',
      acquiring: true,
      record: { holderIdentity: 'a', leaseTransitions: 4 },
    });
  });

  it('the holder renews: keeps acquireTime and transitions, moves renewTime', () => {
    const d = decide(held('a'), T0 - 2000, 'a', T0, DEFAULT_TIMING);
    expect(d).toEqual({
      kind: 'write',
      acquiring: false,
      record: {
        holderIdentity: 'a',
        leaseDurationSeconds: 15,
        acquireTime: T0 - 60_000,
        renewTime: T0,
        leaseTransitions: 3,
      },
    });
  });
});

describe('release and validity', () => {
  it('release empties the holder, keeps the transitions and shortens the duration to 1 s', () => {
    expect(releaseRecord(held('a'), T0)).toEqual({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: T0,
      renewTime: T0,
      leaseTransitions: 3,
    });
  });

  it('leaseValid is strict at the boundary', () => {
    expect(leaseValid(held('b'), T0, T0 + 14_999)).toBe(true);
    expect(leaseValid(held('b'), T0, T0 + 15_000)).toBe(false);
  });
});

describe('timingProblem', () => {
  it.each([
    [DEFAULT_TIMING, null],
    [
      { leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2000 },
      'the lease duration must be longer than the renew deadline',
    ],
    [
      { leaseDurationMs: 15_000, renewDeadlineMs: 2000, retryPeriodMs: 2000 },
      'the renew deadline must be longer than the retry period',
    ],
    [
      { leaseDurationMs: 15_500, renewDeadlineMs: 10_000, retryPeriodMs: 2000 },
      'the lease duration must be whole seconds',
    ],
    [
      { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 0 },
      'the retry period must be positive',
    ],
    // Node would fire these timers after 1 ms: --retry-period 600h --renew-deadline 700h --lease-duration 800h.
    [
      { leaseDurationMs: 800 * 3_600_000, renewDeadlineMs: 700 * 3_600_000, retryPeriodMs: 600 * 3_600_000 },
      'the lease duration, renew deadline and retry period must each be 24h or less',
    ],
    [
      { leaseDurationMs: 25 * 3_600_000, renewDeadlineMs: 10_000, retryPeriodMs: 2000 },
      'the lease duration, renew deadline and retry period must each be 24h or less',
    ],
  ])('%o → %s', (t, problem) => {
    expect(timingProblem(t)).toBe(problem);
  });
});

describe('the edges of what a Lease holds', () => {
  it('a takeover at leaseTransitions 2147483647 (int32 max) wraps the count to 0, never past what the server takes', () => {
    const d = decide(held('b', { leaseTransitions: 2 ** 31 - 1 }), T0 - 20_000, 'a', T0, DEFAULT_TIMING);
    expect(d).toMatchObject({ kind: 'write', acquiring: true, record: { leaseTransitions: 0 } });
    expect(nextTransitions(5)).toBe(6);
  });

  it('a holder whose first 253 characters are our id is someone else', () => {
    const id = 'a'.repeat(253);
    expect(decide(held(`${id}-other`), T0, id, T0, DEFAULT_TIMING)).toEqual({
      kind: 'held',
      holder: `${id}-other`,
    });
  });
});
