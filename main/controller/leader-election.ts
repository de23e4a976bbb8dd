/**
 * Leader election on a Lease, with client-go's semantics (tools/leaderelection): every replica tries
 * to acquire or renew every retry period; the update carries the resourceVersion it read, so a race
 * has one winner (409 for the rest); a candidate takes the lease only once the holder has not renewed
 * for a whole lease duration, timed from when this replica saw the record change.
 *
 * Safety: a leader counts as leading only until `sent + renewDeadline`, where `sent` is when its last
 * successful renew was SENT. Every other replica times expiry from when it SAW that renew, which is
 * later, plus the lease duration, which is longer: so a leader that cannot renew stops (a timer,
 * not the next answer, ends it) at least leaseDuration − renewDeadline before anyone else may start.
 * After losing the lease it goes on as a candidate, so its caches stay warm.
 *
 * `stop()` gives the lease up (client-go's ReleaseOnCancel): holder emptied, so a rollout hands over
 * on the next candidate's try instead of after a lease duration.
 *
 * Beyond client-go: a Lease proves only this loop, so the caller may veto leadership (`veto`: the node
 * watch or the writes have failed too long). A vetoed leader stops leading and releases the lease (so
 * trays and the other replicas see it free at once); a vetoed candidate only reads the Lease. Every write
 * of the Lease carries the caller's `annotations` (the freshness mark trays judge the status by).
 */
import type { Clock } from '../kube/clock.ts';
import { KubeError } from '../kube/errors.ts';
import { DEFAULT_TIMING, decide, type ElectionTiming, leaseValid, releaseRecord } from './leader-decision.ts';
import type { LeaseLock } from './lease-lock.ts';
import type { LeaseAnnotations, ObservedLease } from './lease-record.ts';

/**
 * Candidates wait retryPeriod × (1 + random × JITTER). client-go uses 1.2; a smaller spread keeps a
 * released lease's hand-over under three seconds while still de-synchronising the replicas.
 */
const JITTER = 0.2;

export type LeadershipEvent =
  | { type: 'started-leading'; identity: string; lease: string; transitions: number }
  | { type: 'stopped-leading'; identity: string; lease: string; reason: string }
  /** The holder this replica observes changed (empty: nobody holds it). */
  | { type: 'new-leader'; identity: string; lease: string; holder: string }
  | { type: 'released'; identity: string; lease: string }
  | { type: 'error'; identity: string; lease: string; message: string };

export interface ElectorOptions {
  identity: string;
  lock: LeaseLock;
  clock: Clock;
  timing?: ElectionTiming;
  /** In [0, 1); the jitter of candidates' retries. */
  random?: () => number;
  onEvent: (e: LeadershipEvent) => void;
  /** Why this replica must not lead now (asked before every try), or null. */
  veto?: (leading: boolean) => string | null;
  /** Set over the Lease's own on every write of it. */
  annotations?: () => LeaseAnnotations;
}

export class LeaderElector {
  readonly #o: ElectorOptions;
  readonly #t: ElectionTiming;
  #observed: ObservedLease | null = null;
  #observedAt = 0;
  #leading = false;
  #leaderUntil = 0;
  #next: unknown = null;
  #deadline: unknown = null;
  #inflight: Promise<void> | null = null;
  #stopped = false;
  #reported: string | null = null;
  #lastError: string | null = null;

  constructor(opts: ElectorOptions) {
    this.#o = opts;
    this.#t = opts.timing ?? DEFAULT_TIMING;
  }

  start(): void {
    this.#schedule(0);
  }

  /** True only while the last renew is younger than the renew deadline (checked against the clock). */
  get leading(): boolean {
    return this.#leading && this.#o.clock.now() < this.#leaderUntil;
  }

  /** The holder as last observed ('' for none, null before the first read). */
  get observedLeader(): string | null {
    return this.#observed?.record.holderIdentity ?? null;
  }

  /** Stops trying, stops leading, and releases the lease if we hold it. Never throws. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#next !== null) this.#o.clock.clearTimeout(this.#next);
    this.#next = null;
    if (this.#leading) this.#lose('shutting down');
    // A renew in flight would change the resourceVersion the release must carry.
    await this.#inflight;
    const seen = this.#observed;
    if (seen === null || seen.record.holderIdentity !== this.#o.identity) return;
    try {
      await this.#o.lock.update(releaseRecord(seen.record, this.#o.clock.now()), seen);
      this.#emit({ type: 'released' });
    } catch (e) {
      this.#emit({ type: 'error', message: `could not release the lease: ${describe(e)}` });
    }
  }

  #emit(
    e:
      | Omit<Extract<LeadershipEvent, { type: 'started-leading' }>, 'identity' | 'lease'>
      | Omit<Extract<LeadershipEvent, { type: 'stopped-leading' }>, 'identity' | 'lease'>
      | Omit<Extract<LeadershipEvent, { type: 'new-leader' }>, 'identity' | 'lease'>
      | { type: 'released' }
      | { type: 'error'; message: string },
  ): void {
    const base = { identity: this.#o.identity, lease: this.#o.lock.description };
    try {
      this.#o.onEvent({ ...base, ...e } as LeadershipEvent);
    } catch {
      // A listener's bug must not stop the election loop.
    }
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.#next = this.#o.clock.setTimeout(() => {
      this.#next = null;
      this.#inflight = this.#round().finally(() => {
        this.#inflight = null;
      });
    }, ms);
  }

  async #round(): Promise<void> {
    const sent = this.#o.clock.now();
    let ok = false;
    const veto = this.#o.veto?.(this.#leading) ?? null;
    if (veto !== null && this.#leading) this.#lose(veto);
    try {
      ok = veto === null ? await this.#tryAcquireOrRenew(sent) : await this.#giveUp();
      this.#lastError = null;
    } catch (e) {
      const message = describe(e);
      if (message !== this.#lastError) this.#emit({ type: 'error', message });
      this.#lastError = message;
    }
    if (this.#stopped) return;
    this.#reportLeader();
    const now = this.#o.clock.now();
    const until = sent + this.#t.renewDeadlineMs;
    if (ok && now < until) {
      this.#leaderUntil = until;
      if (this.#deadline !== null) this.#o.clock.clearTimeout(this.#deadline);
      this.#deadline = this.#o.clock.setTimeout(() => this.#onDeadline(), until - now);
      if (!this.#leading) {
        this.#leading = true;
        this.#emit({ type: 'started-leading', transitions: this.#observed?.record.leaseTransitions ?? 0 });
      }
    } else if (this.#leading && this.observedLeader !== this.#o.identity) {
      this.#lose(`the lease is now held by "${this.observedLeader ?? ''}"`);
    }
    const jitter = this.#leading ? 0 : (this.#o.random ?? Math.random)() * JITTER;
    this.#schedule(Math.min(this.#t.retryPeriodMs * (1 + jitter), this.#untilExpiry(now)));
  }

  /**
   * A candidate also tries the moment the holder's lease runs out (as this replica times it), rather
   * than up to a retry period later: a failover then takes one lease duration plus the time it took
   * to see the holder's last renew.
   */
  #untilExpiry(now: number): number {
    const seen = this.#observed?.record;
    if (this.#leading || !seen || seen.holderIdentity === '' || seen.holderIdentity === this.#o.identity)
      return Number.POSITIVE_INFINITY;
    const left = this.#observedAt + seen.leaseDurationSeconds * 1000 - now;
    return left > 0 ? left : Number.POSITIVE_INFINITY;
  }

  #onDeadline(): void {
    this.#deadline = null;
    if (this.#leading && this.#o.clock.now() >= this.#leaderUntil)
      this.#lose(`the lease was not renewed within the renew deadline (${this.#t.renewDeadlineMs / 1000} s)`);
  }

  #lose(reason: string): void {
    this.#leading = false;
    if (this.#deadline !== null) this.#o.clock.clearTimeout(this.#deadline);
    this.#deadline = null;
    this.#emit({ type: 'stopped-leading', reason });
  }

  #reportLeader(): void {
    const holder = this.observedLeader;
    if (holder === null || holder === this.#reported) return;
    this.#reported = holder;
    this.#emit({ type: 'new-leader', holder });
  }

  #observe(lease: ObservedLease): void {
    this.#observed = lease;
    this.#observedAt = this.#o.clock.now();
  }

  /**
   * A vetoed round: read the Lease (so the leader this replica reports stays current) and release it if
   * it is still ours. Always false: nothing of ours was renewed. Throws KubeError.
   */
  async #giveUp(): Promise<false> {
    const got = await this.#o.lock.get();
    if (this.#stopped || got === null) return false;
    if (got.raw !== this.#observed?.raw) this.#observe(got);
    else this.#observed = got;
    if (got.record.holderIdentity === this.#o.identity) {
      this.#observe(await this.#o.lock.update(releaseRecord(got.record, this.#o.clock.now()), got));
      this.#emit({ type: 'released' });
    }
    return false;
  }

  /** One try, as client-go's tryAcquireOrRenew: true when our record was written. Throws KubeError. */
  async #tryAcquireOrRenew(now: number): Promise<boolean> {
    const { lock, identity } = this.#o;
    const seen = this.#observed;
    // Fast path: the holder renews at the resourceVersion of its own last write, without a GET.
    if (seen && seen.record.holderIdentity === identity && leaseValid(seen.record, this.#observedAt, now)) {
      const d = decide(seen.record, this.#observedAt, identity, now, this.#t);
      if (d.kind === 'write') {
        try {
          this.#observe(await lock.update(d.record, seen, this.#o.annotations?.()));
          return true;
        } catch {
          // Fall through to the slow path, which reads the Lease first (client-go does the same).
        }
      }
    }
    const got = await lock.get();
    if (this.#stopped) return false;
    if (got === null) {
      const d = decide(null, 0, identity, now, this.#t);
      if (d.kind !== 'write') return false;
      this.#observe(await lock.create(d.record, this.#o.annotations?.()));
      return true;
    }
    if (got.raw !== this.#observed?.raw) this.#observe(got);
    else this.#observed = got; // same record, maybe a newer resourceVersion: keep the expiry clock running
    const d = decide(got.record, this.#observedAt, identity, now, this.#t);
    if (d.kind === 'held') return false;
    this.#observe(await lock.update(d.record, got, this.#o.annotations?.()));
    return true;
  }
}

function describe(e: unknown): string {
  if (e instanceof KubeError && e.status === 409)
    return 'another replica updated the lease first (409 Conflict)';
  return e instanceof Error ? e.message : String(e);
}
