/**
 * Whether the loops that make a leader worth following work: the node watch (live) and, while leading,
 * the writes (their last outcome was not a failure). A Lease proves only the election loop; this is
 * what leadership, /readyz, `gpu_fleet_synced` and the Lease's freshness mark are judged by.
 *
 * - A loop counts as failing from the moment it stopped working (the watch: since it left `live`, or
 *   since start until it first is; the writes: since the first failure after the last success).
 * - `problem(limit)`: why this replica must not lead (or, for the watch, be ready) once a loop has been
 *   failing for longer than `limit` (the renew deadline), or null.
 * - `freshAt()`: the last moment at which the leader knew its written status matched a live cache (the
 *   watch live and a write outcome this term that was not a failure). The elector writes it into the
 *   Lease; trays distrust a status whose mark is old (fleet/source/source-policy.ts).
 */
import type { ConnectionPhase } from '../../common/connection.ts';
import type { WriteEvent } from '../writeback/index.ts';

interface Failing {
  since: number;
  why: string;
}

export class LoopHealth {
  #watch: Failing | null;
  /** Per write target (status, configmap): one target's success does not excuse the other's failure. */
  readonly #writes = new Map<string, Failing>();
  /** A write outcome this term (leading) that was not a failure. */
  #wroteOk = false;
  #freshAt: number | null = null;

  constructor(startedAt: number) {
    this.#watch = { since: startedAt, why: 'the node cache has not been synced yet' };
  }

  watch(phase: ConnectionPhase, message: string | null, now: number): void {
    if (phase === 'live') {
      this.#watch = null;
      this.#mark(now);
      return;
    }
    const why = `the node watch is ${phase}${message ? ` (${message})` : ''}`;
    this.#watch = { since: this.#watch?.since ?? now, why };
  }

  write(e: WriteEvent, now: number): void {
    if (e.action === 'failed') {
      const since = this.#writes.get(e.target)?.since ?? now;
      this.#writes.set(e.target, { since, why: `writing the ${e.target} failed: ${e.reason}` });
      return;
    }
    this.#writes.delete(e.target);
    this.#wroteOk = true;
    this.#mark(now);
  }

  /** A new term (started or stopped leading): writes are judged afresh. */
  term(): void {
    this.#writes.clear();
    this.#wroteOk = false;
  }

  /** Renews refresh the mark while both loops are healthy. */
  #mark(now: number): void {
    if (this.#watch === null && this.#writes.size === 0 && this.#wroteOk) this.#freshAt = now;
  }

  /** Refreshes and returns the mark (null: this replica never vouched for a status). */
  freshAt(now: number): number | null {
    this.#mark(now);
    return this.#freshAt;
  }

  /** True when the node watch is live now. */
  get watchLive(): boolean {
    return this.#watch === null;
  }

  /** Why the watch failing for more than `limitMs` makes this replica unready, or null. */
  watchProblem(now: number, limitMs: number): string | null {
    return failingFor(this.#watch, now, limitMs);
  }

  /** Why a leader must give up (watch or writes failing for more than `limitMs`), or null. */
  problem(now: number, limitMs: number): string | null {
    let problem = failingFor(this.#watch, now, limitMs);
    for (const f of this.#writes.values()) problem ??= failingFor(f, now, limitMs);
    return problem;
  }
}

function failingFor(f: Failing | null, now: number, limitMs: number): string | null {
  if (f === null || now - f.since <= limitMs) return null;
  return `${f.why}, for ${Math.round((now - f.since) / 1000)} s (longer than the renew deadline)`;
}
