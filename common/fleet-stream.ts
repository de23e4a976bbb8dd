/**
 * Follows the host's fleet stream (ipc.ts, `PushEvents`), for a window and for the web bridge's own copy:
 * holds the snapshot shown and the place in the stream it is (epoch, seq). A delta from that place is applied; a delta after a gap,
 * of another epoch, or one that does not fit makes it read one `fleet:snapshot` (never two at once),
 * holding the deltas meanwhile that do not follow what it holds, then applying those after the snapshot
 * it got. Whole snapshots (pushed, or an invoke's answer) are taken unless they are older than what it
 * holds.
 */
import type { FleetSnapshot } from './fleet.ts';
import { applyDelta } from './fleet-delta.ts';
import {
  type FleetDeltaFrame,
  isEpoch,
  type SyncedSnapshot,
  type SyncMark,
  unstamped,
} from './fleet-sync.ts';

/** Deltas held while a snapshot is read; past this the oldest go (a gap then resynchronises again). */
const HELD_MAX = 256;

export class FleetStream {
  readonly #read: () => Promise<SyncedSnapshot>;
  readonly #changed: (snapshot: FleetSnapshot) => void;
  readonly #failed: (error: unknown) => void;
  #mark: SyncMark | null = null;
  #snapshot: FleetSnapshot | null = null;
  #reading: Promise<void> | null = null;
  #held: FleetDeltaFrame[] = [];
  #reads = 0;

  /**
   * `read` asks the host for a whole snapshot; `changed` gets every snapshot the window should show;
   * `failed` hears of a read that failed after a gap (the next delta tries again).
   */
  constructor(
    read: () => Promise<SyncedSnapshot>,
    changed: (snapshot: FleetSnapshot) => void,
    failed: (error: unknown) => void,
  ) {
    this.#read = read;
    this.#changed = changed;
    this.#failed = failed;
  }

  get mark(): SyncMark | null {
    return this.#mark;
  }
  get snapshot(): FleetSnapshot | null {
    return this.#snapshot;
  }
  /** How many whole snapshots this stream asked the host for (tests and the bench read it). */
  get reads(): number {
    return this.#reads;
  }

  /**
   * A whole snapshot; returns whether it is now the one shown. Held deltas it makes useless (another
   * epoch's, a dead host's; or already in it) go, also when it is not newer than the one shown (a read
   * answered with the place the stream holds): kept, they would read again at every replay.
   */
  take(s: SyncedSnapshot): boolean {
    const m = this.#mark;
    this.#held = this.#held.filter((d) => d.epoch === s.epoch && d.to > s.seq);
    if (m !== null && s.epoch === m.epoch && s.seq <= m.seq) return false;
    this.#mark = { epoch: s.epoch, seq: s.seq };
    this.#snapshot = unstamped(s);
    this.#changed(this.#snapshot);
    return true;
  }

  /**
   * A delta from the place it holds is applied, also while a read is out (the bridge offers this
   * snapshot to a reconnecting page as the newest: it must be as new as the frames it sent); any other
   * is held, and reads unless a read is out already.
   */
  delta(d: FleetDeltaFrame): void {
    if (this.#step(d) !== 'gap') return;
    this.#hold(d);
    if (this.#reading === null) this.sync().catch((e: unknown) => this.#failed(e));
  }

  /**
   * The place the host's stream is at, as a new connection hears it: a window that holds an older
   * snapshot (or none) reads a whole one. Anything not of the mark's shape is ignored.
   */
  markSeen(m: SyncMark): void {
    if (typeof m?.epoch !== 'string' || !isEpoch(m.epoch) || !Number.isSafeInteger(m.seq)) return;
    const cur = this.#mark;
    if (cur !== null && cur.epoch === m.epoch && cur.seq >= m.seq) return;
    this.sync().catch((e: unknown) => this.#failed(e));
  }

  /** Reads a whole snapshot unless a read is in flight (then waits for that one). Rejects when it fails. */
  sync(): Promise<void> {
    this.#reading ??= this.#readOnce();
    return this.#reading;
  }

  async #readOnce(): Promise<void> {
    let moved = false;
    try {
      // A turn first, so `#reading` is set before this can end, even when `read` throws at once.
      await Promise.resolve();
      this.#reads++;
      this.take(await this.#read());
      // It succeeded: a gap still among the held deltas reads once more (#replay). The host answers
      // that read after it pushed every delta held, so its answer covers them (take drops the rest).
      moved = true;
    } finally {
      this.#reading = null;
      this.#replay(moved);
    }
  }

  /**
   * The held deltas, in the order they came: those after the snapshot now held are applied. A gap among
   * them reads again only after a read that succeeded (a failed one leaves it to the next delta, not a
   * loop of failing reads); the deltas a new snapshot made useless are gone already (`take`).
   */
  #replay(read: boolean): void {
    const held = this.#held;
    this.#held = [];
    for (let i = 0; i < held.length; i++) {
      const d = held[i] as FleetDeltaFrame;
      if (this.#step(d) === 'gap') {
        this.#held = held.slice(i);
        if (read) this.sync().catch((e: unknown) => this.#failed(e));
        return;
      }
    }
  }

  #step(d: FleetDeltaFrame): 'applied' | 'old' | 'gap' {
    const m = this.#mark;
    const snapshot = this.#snapshot;
    if (m === null || snapshot === null || d.epoch !== m.epoch) return 'gap';
    if (!Number.isSafeInteger(d.from) || d.to !== d.from + 1) return 'gap';
    if (d.to <= m.seq) return 'old';
    if (d.from !== m.seq) return 'gap';
    let next: FleetSnapshot;
    try {
      next = applyDelta(snapshot, d);
    } catch {
      return 'gap';
    }
    this.#mark = { epoch: d.epoch, seq: d.to };
    this.#snapshot = next;
    this.#changed(next);
    return 'applied';
  }

  #hold(d: FleetDeltaFrame): void {
    this.#held.push(d);
    if (this.#held.length > HELD_MAX) this.#held.shift();
  }
}
