/**
 * Pushes to a window are held until its renderer says it is ready (it has subscribed to them), then
 * delivered in order: a push sent right after the window was created — a notification click's
 * `ui:focus`, the tray's `ui:show` — would otherwise reach a page that is not listening yet and be lost.
 * The electron/fiddle pattern, per webContents and bounded. No 'electron' import: tests use it directly.
 * Pushes are JSON text here: most come from the engine host already encoded, and the preload parses them.
 */
import type { PushChannel } from '../../common/ipc.ts';

/** More than a window can be sent while it loads; beyond it the oldest pushes are dropped. */
export const PUSH_QUEUE_MAX = 200;
/**
 * The most JSON text held for a page that is not ready, in characters: a page that never says ready (its
 * load failed) must not pile up the host's pushes in main. A dropped delta only makes the page resync.
 */
export const PUSH_QUEUE_MAX_CHARS = 32 * 1024 * 1024;

export interface QueuedPush {
  channel: PushChannel;
  json: string;
}

export interface PushTarget {
  send(channel: PushChannel, json: string): void;
}

export class PushQueue {
  #ready = false;
  #held: QueuedPush[] = [];
  #heldChars = 0;
  #dropped = 0;
  readonly #target: PushTarget;
  readonly #max: number;
  readonly #maxChars: number;

  constructor(target: PushTarget, max = PUSH_QUEUE_MAX, maxChars = PUSH_QUEUE_MAX_CHARS) {
    this.#target = target;
    this.#max = max;
    this.#maxChars = maxChars;
  }

  get ready(): boolean {
    return this.#ready;
  }
  /** Pushes dropped because the queue was full (oldest first), since the page last said ready. */
  get dropped(): number {
    return this.#dropped;
  }
  get held(): number {
    return this.#held.length;
  }

  send(channel: PushChannel, json: string): void {
    if (this.#ready) {
      this.#target.send(channel, json);
      return;
    }
    this.#held.push({ channel, json });
    this.#heldChars += json.length;
    while (this.#held.length > this.#max || (this.#heldChars > this.#maxChars && this.#held.length > 1)) {
      this.#heldChars -= this.#held.shift()?.json.length ?? 0;
      this.#dropped++;
    }
  }

  /**
   * The renderer subscribed: deliver what was held, in order, then send directly. Returns how many
   * pushes were dropped since the last time, for the caller to report.
   */
  markReady(): number {
    if (this.#ready) return 0;
    this.#ready = true;
    const held = this.#held;
    const dropped = this.#dropped;
    this.#held = [];
    this.#heldChars = 0;
    this.#dropped = 0;
    for (const p of held) this.#target.send(p.channel, p.json);
    return dropped;
  }

  /** The page is (re)loading: its listeners are gone, so hold again until it says ready. */
  reset(): void {
    this.#ready = false;
  }
}
