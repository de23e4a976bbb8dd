/**
 * One server-sent-events client of the loopback bridge, with backpressure. While the socket takes what it
 * is given, frames go straight out. Once `write` returns false (a frozen tab, a sleeping laptop), nothing
 * more is written until 'drain'. Frames of a state channel (`fleet:snapshot`: each one replaces the last)
 * are coalesced, so only the newest waits; every other frame (an alert, a notice, a focus request) is news
 * and waits in order. A client that stays blocked past `maxBlockedMs`, or whose waiting frames pass
 * `maxHeldBytes`, is dropped; the window reconnects and reads a fresh snapshot and the alert log.
 */
import type http from 'node:http';
import type { Clock } from '../kube/clock.ts';

export interface SseLimits {
  maxBlockedMs: number;
  maxHeldBytes: number;
}

export const DEFAULT_SSE_LIMITS: SseLimits = { maxBlockedMs: 60_000, maxHeldBytes: 32 * 1024 * 1024 };

/** Channels whose newest frame makes every older one obsolete. */
const STATE_CHANNELS: ReadonlySet<string> = new Set(['fleet:snapshot']);

interface Held {
  channel: string;
  frame: string;
  bytes: number;
}

export class SseClient {
  readonly #res: http.ServerResponse;
  readonly #clock: Clock;
  readonly #limits: SseLimits;
  /** Frames waiting for 'drain', in order; at most one of each state channel. */
  #held: Held[] = [];
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
      this.#held = [];
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

  /** Sends a frame, or holds it while the client is slow (a state frame replaces the older one held). */
  send(channel: string, frame: string): void {
    if (this.#closed) return;
    if (this.#blockedSince === null) {
      this.#write(frame);
      return;
    }
    if (STATE_CHANNELS.has(channel)) {
      const i = this.#held.findIndex((h) => h.channel === channel);
      if (i >= 0) {
        this.#heldBytes -= this.#held[i]?.bytes ?? 0;
        this.#held.splice(i, 1);
      }
    }
    const bytes = Buffer.byteLength(frame);
    this.#held.push({ channel, frame, bytes });
    this.#heldBytes += bytes;
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
    this.#held = [];
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
    const frames = this.#held;
    this.#held = [];
    this.#heldBytes = 0;
    for (const { channel, frame } of frames) {
      if (this.#blockedSince === null) this.#write(frame);
      else this.send(channel, frame);
    }
  }
}
