/**
 * One server-sent-events client of the loopback bridge, with backpressure. While the socket takes what it
 * is given, frames go straight out. Once `write` returns false (a frozen tab, a sleeping laptop, or just a
 * whole snapshot filling the socket), nothing more is written until 'drain', and frames wait:
 * - a whole `fleet:snapshot` replaces every fleet frame waiting (it is newer than all of them);
 * - `fleet:delta` frames wait in order, as each needs the one before, up to `maxHeldDeltaBytes`; past
 *   that they are dropped, later ones are not kept, and on drain the client gets one fresh whole snapshot
 *   (from `fresh`) instead: deltas cannot be coalesced, a snapshot replaces them all;
 * - every other frame (an alert, a notice, a focus request) is news and waits in order.
 * A client that stays blocked past `maxBlockedMs`, or whose waiting frames pass `maxHeldBytes`, is
 * dropped; the window reconnects and reads a fresh snapshot and the alert log.
 */
import type http from 'node:http';
import type { Clock } from '../kube/clock.ts';

export interface SseLimits {
  maxBlockedMs: number;
  maxHeldBytes: number;
  /** Fleet deltas kept for a blocked client before they are traded for one whole snapshot on drain. */
  maxHeldDeltaBytes?: number;
}

export const DEFAULT_SSE_LIMITS: SseLimits = {
  maxBlockedMs: 60_000,
  maxHeldBytes: 32 * 1024 * 1024,
  maxHeldDeltaBytes: 256 * 1024,
};

const SNAPSHOT = 'fleet:snapshot';
const DELTA = 'fleet:delta';
const isFleet = (channel: string) => channel === SNAPSHOT || channel === DELTA;

interface Held {
  channel: string;
  frame: string;
  bytes: number;
}

export class SseClient {
  readonly #res: http.ServerResponse;
  readonly #clock: Clock;
  readonly #limits: SseLimits;
  readonly #fresh: () => string | null;
  /** Frames waiting for 'drain', in order; at most one whole snapshot, and only deltas after it. */
  #held: Held[] = [];
  #heldBytes = 0;
  #heldDeltaBytes = 0;
  /** Fleet deltas were dropped: the client needs a whole snapshot before any further fleet frame. */
  #stale = false;
  #blockedSince: number | null = null;
  #closed = false;

  /** `fresh` makes the whole fleet snapshot frame as it is now (null when there is none yet). */
  constructor(
    res: http.ServerResponse,
    clock: Clock,
    limits: SseLimits = DEFAULT_SSE_LIMITS,
    fresh: () => string | null = () => null,
  ) {
    this.#res = res;
    this.#clock = clock;
    this.#limits = limits;
    this.#fresh = fresh;
    res.on('drain', () => this.#flush());
    res.on('close', () => {
      this.#closed = true;
      this.#clearHeld();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Bytes this client holds in memory: in the socket's buffer plus the frames waiting for 'drain'. */
  get bufferedBytes(): number {
    return this.#res.writableLength + this.#heldBytes;
  }

  /** Sends a frame, or holds it while the client is slow (see the file comment for which are kept). */
  send(channel: string, frame: string): void {
    if (this.#closed) return;
    if (this.#blockedSince === null) {
      this.#write(frame);
      return;
    }
    if (channel === SNAPSHOT) {
      this.#dropFleet();
      this.#stale = false;
    } else if (channel === DELTA) {
      if (this.#stale) return;
      const limit = this.#limits.maxHeldDeltaBytes ?? DEFAULT_SSE_LIMITS.maxHeldDeltaBytes ?? 0;
      if (this.#heldDeltaBytes + Buffer.byteLength(frame) > limit) {
        this.#dropFleet();
        this.#stale = true;
        return;
      }
    }
    const bytes = Buffer.byteLength(frame);
    this.#held.push({ channel, frame, bytes });
    this.#heldBytes += bytes;
    if (channel === DELTA) this.#heldDeltaBytes += bytes;
    this.check();
  }

  /** A comment line that keeps proxies from closing an idle stream; skipped while the client is slow. */
  heartbeat(): void {
    if (this.#closed) return;
    if (this.#blockedSince === null) this.#write(': keep-alive\n\n');
    else this.check();
  }

  /** Drops the client when it has been blocked too long or holds too much. */
  check(): void {
    if (this.#closed || this.#blockedSince === null) return;
    const tooLong = this.#clock.now() - this.#blockedSince >= this.#limits.maxBlockedMs;
    if (tooLong || this.#heldBytes > this.#limits.maxHeldBytes) this.drop();
  }

  drop(): void {
    this.#closed = true;
    this.#clearHeld();
    this.#res.destroy();
  }

  end(): void {
    this.#closed = true;
    this.#res.end();
  }

  #write(frame: string): void {
    if (!this.#res.write(frame)) this.#blockedSince ??= this.#clock.now();
  }

  #flush(): void {
    if (this.#closed) return;
    this.#blockedSince = null;
    const frames = this.#held;
    this.#clearHeld();
    for (const { channel, frame } of frames) {
      if (this.#blockedSince === null) this.#write(frame);
      else this.send(channel, frame);
    }
    if (this.#stale) {
      this.#stale = false;
      const whole = this.#fresh();
      if (whole !== null) this.send(SNAPSHOT, whole);
    }
  }

  #dropFleet(): void {
    const kept = this.#held.filter((h) => !isFleet(h.channel));
    this.#held = kept;
    this.#heldBytes = kept.reduce((sum, h) => sum + h.bytes, 0);
    this.#heldDeltaBytes = 0;
  }

  #clearHeld(): void {
    this.#held = [];
    this.#heldBytes = 0;
    this.#heldDeltaBytes = 0;
  }
}
