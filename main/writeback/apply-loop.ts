/**
 * The write-only-on-change loop shared by the status writer and the ConfigMap writer.
 *
 * - It compares what it wants with what the CLUSTER holds: the first run (and the first after any
 *   failure) GETs the object; after a successful apply it remembers what it applied. So a restart
 *   against an unchanged cluster makes a GET and no write.
 * - Bursts coalesce: at most one apply per `minIntervalMs`; changes in between only replace the
 *   wanted value, and the run compares the latest one (a flip and flip-back inside the window is a skip).
 * - A failure becomes a phase and a sentence, never an exception; the loop retries with backoff,
 *   except after a terminal failure (invalid, too large, owned by another field manager): the same value
 *   cannot succeed, so it waits until the wanted value changes meaningfully (`equal` says it differs).
 * - It cannot feed itself: its input is the node inventory, never the objects it writes, and an
 *   identical value is never re-applied.
 */
import type { WritebackPhase, WritebackState } from '../../common/fleet.ts';
import { Backoff } from '../kube/backoff.ts';
import type { Clock } from '../kube/clock.ts';
import { toWriteError, type WriteError } from './write-error.ts';

export interface ApplyTarget<T> {
  /** Reads what the cluster holds now; null when the object does not exist. Throws WriteError. */
  read(): Promise<T | null>;
  /** Applies `value`. Throws WriteError. */
  apply(value: T): Promise<void>;
  equal(a: T, b: T | null): boolean;
}

export interface LoopOutcome {
  action: 'written' | 'skipped' | 'failed';
  reason: string;
  at: string;
}

export interface ApplyLoopOptions {
  clock: Clock;
  minIntervalMs: number;
  /** Longest wait between retries after failures. */
  maxBackoffMs?: number;
  random?: () => number;
}

export class ApplyLoop<T> {
  #wanted: T | null = null;
  /** What the cluster holds as far as we know; undefined: unknown, GET it first. */
  #known: T | null | undefined = undefined;
  #timer: unknown = null;
  #running = false;
  #dirty = false;
  #stopped = false;
  #lastApplyAt: number | null = null;
  /** The coalescing window the latest want() asked for; null: opts.minIntervalMs. */
  #intervalMs: number | null = null;
  /** The value a terminal failure refused; not tried again until the wanted value differs from it. */
  #refused: T | null = null;
  readonly #backoff: Backoff;
  #state: WritebackState = { phase: 'idle', message: null, lastWriteAt: null, writes: 0, skipped: 0 };

  constructor(
    private readonly target: ApplyTarget<T>,
    private readonly opts: ApplyLoopOptions,
    private readonly onOutcome: (o: LoopOutcome) => void,
    private readonly onState: () => void,
  ) {
    this.#backoff = new Backoff(
      opts.clock,
      { initialMs: Math.max(1000, opts.minIntervalMs), maxMs: opts.maxBackoffMs ?? 300_000, resetAfterMs: 0 },
      opts.random,
    );
  }

  state(): WritebackState {
    return this.#state;
  }

  /** `minIntervalMs` replaces the options' window from now on (the status writer widens it at scale). */
  want(value: T, minIntervalMs?: number): void {
    if (this.#stopped) return;
    this.#wanted = value;
    if (minIntervalMs !== undefined) this.#intervalMs = minIntervalMs;
    if (this.#refused !== null) {
      if (this.target.equal(value, this.#refused)) return;
      this.#refused = null;
    }
    if (this.#running) this.#dirty = true;
    else this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    this.opts.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #schedule(): void {
    // A pending timer (coalescing window or backoff) will pick up the latest wanted value.
    if (this.#timer !== null || this.#stopped || this.#wanted === null) return;
    const now = this.opts.clock.now();
    const delay =
      this.#lastApplyAt === null
        ? 0
        : Math.max(0, this.#lastApplyAt + (this.#intervalMs ?? this.opts.minIntervalMs) - now);
    this.#timer = this.opts.clock.setTimeout(() => this.#runCaught(), delay);
  }

  /**
   * #run catches the write's own failures; this catches what escapes it (a throwing outcome or state
   * listener), so a timer callback never leaves an unhandled rejection, which would end a CLI process.
   */
  #runCaught(): void {
    this.#run().catch((e: unknown) => {
      this.#running = false;
      this.#state = {
        ...this.#state,
        phase: 'error',
        message: `Write-back hit an internal error: ${String(e)}`,
      };
    });
  }

  async #run(): Promise<void> {
    this.#timer = null;
    const wanted = this.#wanted;
    if (this.#stopped || wanted === null) return;
    this.#running = true;
    this.#dirty = false;
    try {
      if (this.#known === undefined) this.#known = await this.target.read();
      if (this.#stopped) return;
      if (this.target.equal(wanted, this.#known)) {
        this.#succeeded('skipped', 'no change', false);
      } else {
        this.#lastApplyAt = this.opts.clock.now();
        this.#setState({ phase: 'writing' });
        await this.target.apply(wanted);
        if (this.#stopped) return;
        const reason = this.#known === null ? 'created' : 'changed';
        this.#known = wanted;
        this.#succeeded('written', reason, true);
      }
    } catch (e) {
      if (!this.#stopped) this.#failed(toWriteError(e, 'writing back'), wanted);
    } finally {
      this.#running = false;
      if (this.#dirty && !this.#stopped) this.#schedule();
    }
  }

  #succeeded(action: 'written' | 'skipped', reason: string, wrote: boolean): void {
    const at = new Date(this.opts.clock.now()).toISOString();
    this.#backoff.reset();
    const s = this.#state;
    this.#setState({
      phase: 'idle',
      message: null,
      writes: s.writes + (wrote ? 1 : 0),
      skipped: s.skipped + (wrote ? 0 : 1),
      lastWriteAt: wrote ? at : s.lastWriteAt,
    });
    this.onOutcome({ action, reason, at });
  }

  #failed(err: WriteError, attempted: T): void {
    this.#known = undefined;
    this.#setState({
      phase: err.phase,
      message: err.message,
      ...(err.phase === 'conflict' && err.owners.length > 0 ? { owners: [...err.owners] } : {}),
    });
    this.onOutcome({
      action: 'failed',
      reason: err.message,
      at: new Date(this.opts.clock.now()).toISOString(),
    });
    this.opts.clock.clearTimeout(this.#timer);
    this.#timer = null;
    if (err.terminal) {
      // No timer: the next try is a meaningful change of the wanted value (see want()). A change that
      // came in while this run was in flight is that already (the finally of #run schedules it).
      const changed = this.#wanted !== null && !this.target.equal(this.#wanted, attempted);
      this.#refused = changed ? null : attempted;
      if (!changed) this.#dirty = false;
      return;
    }
    this.#timer = this.opts.clock.setTimeout(() => this.#runCaught(), this.#backoff.next());
  }

  /** Owners belong to one conflict: a state set without them has none. */
  #setState(patch: Partial<WritebackState> & { phase: WritebackPhase }): void {
    const prev = this.#state;
    const { owners: _owners, ...rest } = prev;
    this.#state = { ...rest, ...patch };
    if (JSON.stringify(prev) !== JSON.stringify(this.#state)) this.onState();
  }
}
