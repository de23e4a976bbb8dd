/**
 * The fleet stream as server-sent events. Every fleet frame carries the SSE id `<epoch>:<seq>` of the
 * snapshot a window holds once it has applied it, so a reconnecting EventSource says in `Last-Event-ID`
 * where it stopped. The bridge follows the stream itself (the same FleetStream a window runs) to have a
 * whole snapshot at hand: for a connection whose Last-Event-ID is not the current one, and for a slow
 * client whose deltas were dropped (sse.ts). A new connection (no Last-Event-ID) loads its snapshot by
 * invoke, as a window always does at start, so it is sent only a `fleet:mark`: the current id and place.
 * A window whose read was answered before this connection could hear the deltas after it reads again;
 * and the browser keeps the id, so a reconnection that missed something says so even when no fleet
 * frame arrived before the cut.
 */

import { FleetStream } from '../../common/fleet-stream.ts';
import type { FleetDeltaFrame, SyncedSnapshot } from '../../common/fleet-sync.ts';
import { isEpoch, parseSyncId, syncId } from '../../common/fleet-sync.ts';
import type { PushChannel, PushEvents } from '../../common/ipc.ts';
import type { FleetHost } from '../fleet/host.ts';

const sse = (channel: string, id: string, data: string) => `id: ${id}\nevent: ${channel}\ndata: ${data}\n\n`;

/** A stamp as a publisher makes it (a host that stamps nothing gets plain frames, without ids). */
const stamped = (epoch: unknown, seq: unknown): boolean =>
  typeof epoch === 'string' && isEpoch(epoch) && Number.isSafeInteger(seq);

export class FleetFrames {
  readonly #stream: FleetStream;
  /** The whole-snapshot frame of the current seq, made when first needed. */
  #whole: string | null = null;
  #failedReads = 0;

  constructor(host: FleetHost) {
    this.#stream = new FleetStream(
      async () => host.handlers['fleet:snapshot'](),
      () => {
        this.#whole = null;
      },
      // Windows resynchronise on their own; the bridge reads again at the next gap or connection.
      () => {
        this.#failedReads++;
      },
    );
  }

  /** Reads of a whole snapshot that failed (the host did not answer). */
  get failedReads(): number {
    return this.#failedReads;
  }

  /** The SSE frame of a fleet push and its id, after taking it in; null for any other channel. */
  frame<P extends PushChannel>(channel: P, payload: PushEvents[P]): { frame: string; id: string } | null {
    if (channel === 'fleet:snapshot') {
      const s = payload as SyncedSnapshot;
      if (!stamped(s.epoch, s.seq)) return null;
      this.#stream.take(s);
      const id = syncId(s);
      return { frame: sse(channel, id, JSON.stringify(s)), id };
    }
    if (channel === 'fleet:delta') {
      const d = payload as FleetDeltaFrame;
      if (!stamped(d.epoch, d.to)) return null;
      this.#stream.delta(d);
      const id = syncId({ epoch: d.epoch, seq: d.to });
      return { frame: sse(channel, id, JSON.stringify(d)), id };
    }
    return null;
  }

  /** The whole snapshot as it is now, as a `fleet:snapshot` frame; null before the first. */
  whole(): string | null {
    const snapshot = this.#stream.snapshot;
    const mark = this.#stream.mark;
    if (snapshot === null || mark === null) return null;
    this.#whole ??= sse('fleet:snapshot', syncId(mark), JSON.stringify({ ...snapshot, ...mark }));
    return this.#whole;
  }

  /**
   * For a new event-stream connection: the whole snapshot when it holds another than the current one, a
   * mark when it is new (it reads its own), nothing when it is current. `lastId` is the id of the last
   * fleet frame sent on this connection, else its Last-Event-ID header as the client sent it (anything;
   * absent for a new connection). Before the first snapshot it reads one.
   */
  catchUp(
    lastId: () => unknown,
    send: (channel: 'fleet:snapshot' | 'fleet:mark', frame: string) => void,
  ): void {
    const offer = () => {
      const mark = this.#stream.mark;
      const whole = this.whole();
      if (whole === null || mark === null) return;
      const raw = lastId();
      if (raw === undefined) {
        send('fleet:mark', sse('fleet:mark', syncId(mark), JSON.stringify(mark)));
        return;
      }
      const last = parseSyncId(raw);
      if (last === null || last.epoch !== mark.epoch || last.seq !== mark.seq) send('fleet:snapshot', whole);
    };
    if (this.#stream.mark !== null) offer();
    else
      this.#stream.sync().then(offer, () => {
        this.#failedReads++;
      });
  }
}
