/**
 * Numbers the fleet snapshots windows see and pushes them small (the stream of `PushEvents` in
 * common/ipc.ts): the first one whole as `fleet:snapshot`, then each one that changed as a `fleet:delta`
 * from the one before. The epoch is random per publisher, so windows of a restarted engine host
 * resynchronise instead of applying deltas to another stream's snapshot.
 */
import { randomBytes } from 'node:crypto';
import type { FleetSnapshot } from '../../common/fleet.ts';
import { diffSnapshots, isEmptyDelta } from '../../common/fleet-delta.ts';
import type { SyncedSnapshot } from '../../common/fleet-sync.ts';
import type { PushEvents } from '../../common/ipc.ts';

/** Where the fleet stream goes (an app core's push hub). */
export type FleetPush = <P extends 'fleet:snapshot' | 'fleet:delta'>(
  channel: P,
  payload: PushEvents[P],
) => void;

export class SnapshotPublisher {
  readonly epoch: string;
  readonly #push: FleetPush;
  #seq = 0;
  /** The snapshot windows hold after the last push (equal to what they rebuild from the deltas). */
  #last: FleetSnapshot | null = null;

  constructor(push: FleetPush, epoch: string = randomBytes(9).toString('base64url')) {
    this.#push = push;
    this.epoch = epoch;
  }

  get seq(): number {
    return this.#seq;
  }

  /**
   * Publishes `snapshot` and returns what is published now, stamped. Nothing is pushed when only its
   * `generatedAt` is new: windows keep the last published one (and its time), and so does the stamp.
   */
  publish(snapshot: FleetSnapshot): SyncedSnapshot {
    const last = this.#last;
    if (last === null) {
      this.#last = snapshot;
      this.#seq = 1;
      const whole = this.#stamp(snapshot);
      this.#push('fleet:snapshot', whole);
      return whole;
    }
    const delta = diffSnapshots(last, snapshot);
    if (isEmptyDelta(delta)) return this.#stamp(last);
    const from = this.#seq;
    this.#seq = from + 1;
    this.#last = snapshot;
    this.#push('fleet:delta', { ...delta, epoch: this.epoch, from, to: this.#seq });
    return this.#stamp(snapshot);
  }

  /** The last published snapshot, stamped; null before the first. */
  current(): SyncedSnapshot | null {
    return this.#last === null ? null : this.#stamp(this.#last);
  }

  #stamp(snapshot: FleetSnapshot): SyncedSnapshot {
    return { ...snapshot, epoch: this.epoch, seq: this.#seq };
  }
}
