/**
 * One server-sent-events client of the loopback bridge, with backpressure. While the socket takes what it
 * is given, frames go straight out. Once `write` returns false (a frozen tab, a sleeping laptop), nothing
 * more is written until 'drain': each channel keeps only its newest frame (a newer snapshot replaces an
 * older one), so what waits for a slow client is at most one frame per channel. A client that stays
 * blocked past `maxBlockedMs`, or whose waiting frames pass `maxHeldBytes`, is dropped; the window
 * reconnects and reads a fresh snapshot.
 */
import type http from 'node:http';
import type { Clock } from '../kube/clock.ts';

export interface SseLimits {
  maxBlockedMs: number;
  maxHeldBytes: number;
}

export const DEFAULT_SSE_LIMITS: SseLimits = { maxBlockedMs: 60_000, maxHeldBytes: 32 * 1024 * 1024 };

export class SseClient {
  readonly #res: http.ServerResponse;
  readonly #clock: Clock;
  readonly #limits: SseLimits;
  /** Newest waiting frame per channel, in first-held order. */
  readonly #held = new Map<string, string>();
  #heldBytes = 0;
  #blockedSince: number | null = null;
  #closed = false;

  constructor(res: http.ServerResponse, clock: Clock, limits: SseLimits = DEFAULT_SSE_LIMITS) {
    this.#res = res;
    this.#clock = clock;
    this.#limits = limits;
    res.on('drain', () => this.#flush());
    res.on('close', () => {
      this.#closed = true;
      this.#held.clear();
      this.#heldBytes = 0;
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Bytes this client holds in memory: in the socket's buffer plus the frames waiting for 'drain'. */
  get bufferedBytes(): number {
    return this.#res.writableLength + this.#heldBytes;
  }

  /** Sends a frame, or holds it (replacing an older one of the same channel) while the client is slow. */
  send(channel: string, frame: string): void {
    if (this.#closed) return;
    if (this.#blockedSince === null) {
      this.#write(frame);
      return;
    }
    const before = this.#held.get(channel);
    if (before !== undefined) this.#heldBytes -= Buffer.byteLength(before);
    this.#held.delete(channel);
    this.#held.set(channel, frame);
    this.#heldBytes += Buffer.byteLength(frame);
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
    this.#held.clear();
    this.#heldBytes = 0;
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
    const frames = [...this.#held.entries()];
    this.#held.clear();
    this.#heldBytes = 0;
    for (const [channel, frame] of frames) {
      if (this.#blockedSince === null) this.#write(frame);
      else this.send(channel, frame);
    }
  }
}
