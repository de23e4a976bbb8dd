/**
 * One target's delivery queue: bounded (a target down for hours keeps at most `max` messages, the
 * oldest dropped and counted), in order, one request at a time, retried with the watchers' backoff
 * (main/kube/backoff.ts) or the server's Retry-After, whichever is longer. Terminal answers end the
 * message and stay visible as the target's problem. All waiting is on the injected clock.
 *
 * No duplicate after a retry that actually succeeded: an attempt whose answer was lost once the
 * connection was made (a reset, a timeout) is marked `ambiguous`; before sending it again the queue asks
 * the target whether it already has it (`check`, ntfy: a poll for the event's tag). A webhook receives the same Idempotency-Key on
 * every try; Slack and Discord have no such key, so there a lost answer may mean a second message.
 */
import type { ForwardKind, ForwardStatus } from '../../common/forwarding.ts';
import { Backoff, type BackoffOptions } from '../kube/backoff.ts';
import type { Clock } from '../kube/clock.ts';
import type { ForwardMessage } from './message.ts';
import type { OutboundRequest } from './outbound.ts';
import { judge } from './outcome.ts';
import type { DeliveryEvent, DeliveryRecorder } from './recorder.ts';
import { SEND_DEFAULTS, type Sender } from './send.ts';

export interface QueueItem {
  message: ForwardMessage;
  attempts: number;
  /** Epoch ms of the first attempt, null before it. */
  firstTriedAt: number | null;
  /** A try may have reached the target although no answer came back. */
  ambiguous: boolean;
}

export interface QueueTarget {
  id: string;
  kind: ForwardKind;
  host: string;
  /** The secret values a server's words must not repeat (outcome.ts strikes them). */
  secrets?: readonly string[];
  request(m: ForwardMessage): OutboundRequest;
  /** A request whose 200 answer's body contains `found` when the message is already there. */
  check?(item: QueueItem): { request: OutboundRequest; found: string };
}

export interface QueueOptions {
  clock: Clock;
  send: Sender;
  recorder: DeliveryRecorder;
  /** Called after every change of the items (the forwarder persists all queues). */
  changed: () => void;
  max: number;
  maxAgeMs: number;
  backoff?: Partial<BackoffOptions>;
  random?: () => number;
  timeoutMs?: number;
}

/** Retries start slower than a watcher's: a chat server that refused once is not asked again at once. */
export const DELIVERY_BACKOFF: Partial<BackoffOptions> = { initialMs: 2_000, maxMs: 5 * 60_000 };

export class DeliveryQueue {
  readonly #t: QueueTarget;
  readonly #o: QueueOptions;
  readonly #backoff: Backoff;
  #items: QueueItem[];
  #busy = false;
  #timer: unknown = null;
  #stopped = false;
  #dropped = 0;
  #problem: string | null = null;
  #lastDeliveredAt: number | null = null;
  /** Settles when the queue has nothing in flight and nothing due (tests and `notify test` await it). */
  #idle: Array<() => void> = [];

  constructor(target: QueueTarget, opts: QueueOptions, restored: readonly QueueItem[] = []) {
    this.#t = target;
    this.#o = opts;
    this.#backoff = new Backoff(opts.clock, { ...DELIVERY_BACKOFF, ...opts.backoff }, opts.random);
    this.#items = restored.slice(-opts.max).map((i) => ({ ...i }));
    this.#dropped = Math.max(0, restored.length - opts.max);
    if (this.#items.length > 0) this.#kick();
  }

  get items(): readonly QueueItem[] {
    return this.#items;
  }

  enqueue(message: ForwardMessage): void {
    if (this.#stopped || this.#items.some((i) => i.message.eventId === message.eventId)) return;
    this.#items.push({ message, attempts: 0, firstTriedAt: null, ambiguous: false });
    while (this.#items.length > this.#o.max) {
      const old = this.#items.shift();
      this.#dropped++;
      if (old) this.#record(old, 'dropped', `queue full (${this.#o.max} messages): the oldest was dropped`);
    }
    this.#o.changed();
    this.#kick();
  }

  status(): ForwardStatus {
    return {
      id: this.#t.id,
      pending: this.#items.length,
      dropped: this.#dropped,
      problem: this.#problem,
      lastDeliveredAt: this.#lastDeliveredAt,
    };
  }

  /** Resolves once nothing is in flight (a retry may still be waiting on the clock). */
  async settled(): Promise<void> {
    // A delivery starts the next one at once: wait until none follows.
    while (this.#busy) await new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  /** Stops sending. A message in flight stays queued, marked ambiguous: the next start checks first. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#busy && this.#items[0]) this.#items[0].ambiguous = true;
  }

  #kick(): void {
    if (this.#busy || this.#timer !== null || this.#stopped) return;
    void this.#run();
  }

  async #run(): Promise<void> {
    const item = this.#items[0];
    if (!item) return;
    this.#busy = true;
    try {
      await this.#attempt(item);
    } finally {
      this.#busy = false;
      for (const done of this.#idle.splice(0)) done();
    }
    this.#kick();
  }

  async #attempt(item: QueueItem): Promise<void> {
    const { clock } = this.#o;
    const now = clock.now();
    const age = now - Date.parse(item.message.at);
    if (age > this.#o.maxAgeMs)
      return this.#finish(
        item,
        'expired',
        `older than ${Math.round(this.#o.maxAgeMs / 3_600_000)} h: not sent`,
      );
    if (item.ambiguous && this.#t.check && (await this.#alreadyThere(item))) return this.#delivered(item);
    if (this.#stopped) return;
    item.firstTriedAt ??= now;
    item.attempts++;
    const result = await this.#o.send(this.#t.request(item.message), this.#sendOptions());
    if (this.#stopped) {
      // Stopped while the request was out: whatever came back, the next start checks before sending.
      item.ambiguous = true;
      return;
    }
    const outcome = judge(this.#t.kind, this.#t.host, result, clock.now(), this.#t.secrets);
    if (outcome.type === 'delivered') return this.#delivered(item);
    if (outcome.type === 'terminal') {
      this.#problem = outcome.why;
      return this.#finish(item, 'failed', outcome.why);
    }
    item.ambiguous ||= outcome.ambiguous;
    const wait = Math.max(this.#backoff.next(), outcome.afterMs ?? 0);
    this.#problem = `${outcome.why}; retrying in ${Math.ceil(wait / 1000)} s`;
    this.#record(item, 'retrying', this.#problem);
    this.#o.changed();
    this.#timer = clock.setTimeout(() => {
      this.#timer = null;
      this.#kick();
    }, wait);
  }

  async #alreadyThere(item: QueueItem): Promise<boolean> {
    const probe = this.#t.check?.(item);
    if (!probe) return false;
    const result = await this.#o.send(probe.request, this.#sendOptions());
    return result.type === 'answer' && result.status === 200 && result.body.includes(probe.found);
  }

  #sendOptions() {
    return {
      clock: this.#o.clock,
      timeoutMs: this.#o.timeoutMs ?? SEND_DEFAULTS.timeoutMs,
      maxBytes: SEND_DEFAULTS.maxBytes,
    };
  }

  #delivered(item: QueueItem): void {
    this.#backoff.reset();
    this.#problem = null;
    this.#lastDeliveredAt = this.#o.clock.now();
    this.#finish(item, 'delivered', null);
  }

  #finish(item: QueueItem, outcome: DeliveryEvent['outcome'], detail: string | null): void {
    this.#items = this.#items.filter((i) => i !== item);
    this.#record(item, outcome, detail);
    this.#o.changed();
  }

  #record(item: QueueItem, outcome: DeliveryEvent['outcome'], detail: string | null): void {
    this.#o.recorder.record({
      at: this.#o.clock.now(),
      target: this.#t.id,
      kind: this.#t.kind,
      eventId: item.message.eventId,
      alertId: item.message.alertId,
      outcome,
      attempt: item.attempts,
      detail,
    });
  }
}
