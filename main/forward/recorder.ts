/**
 * The port every delivery attempt's result goes through. The forwarder hands each event to every
 * recorder it has: the host's (the CLI prints a line), the timeline database's (main/fleet/
 * forward-timeline.ts keeps the final outcomes with their alert), or `MemoryDeliveryRecorder`, which
 * keeps the last few hundred in memory (the tests read it).
 */
import type { ForwardKind } from '../../common/forwarding.ts';

export interface DeliveryEvent {
  /** Epoch ms. */
  at: number;
  target: string;
  kind: ForwardKind;
  eventId: string;
  alertId: string;
  outcome: 'delivered' | 'retrying' | 'failed' | 'dropped' | 'expired';
  attempt: number;
  /** One sentence (no secret): why it is retried, failed or dropped; null when delivered. */
  detail: string | null;
}

export interface DeliveryRecorder {
  record(event: DeliveryEvent): void;
}

export class MemoryDeliveryRecorder implements DeliveryRecorder {
  readonly #events: DeliveryEvent[] = [];
  constructor(readonly max = 500) {}

  record(event: DeliveryEvent): void {
    this.#events.push(event);
    if (this.#events.length > this.max) this.#events.splice(0, this.#events.length - this.max);
  }

  get events(): readonly DeliveryEvent[] {
    return this.#events;
  }
}
