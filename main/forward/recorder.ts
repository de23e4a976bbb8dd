/**
 * The port every delivery attempt's result goes through. The timeline database (issue 27) will provide
 * a recorder that keeps them with the alerts; until it is wired, `MemoryDeliveryRecorder` keeps the last
 * few hundred in memory (what the window's status line and the tests read).
 */
export interface DeliveryEvent {
  /** Epoch ms. */
  at: number;
  target: string;
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
