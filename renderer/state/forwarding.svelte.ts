/**
 * The window's view of alert forwarding: the host's targets (no secret ever crosses) with their delivery
 * state, and the "Send test" the user asks for, one at a time per target.
 */
import type { ForwardTestResult, ForwardView } from '../../common/forwarding.ts';
import type { FleetApi } from '../../common/ipc.ts';
import { invokeErrorText } from '../lib/invoke-error.ts';

export class ForwardingStore {
  #api: FleetApi | undefined;
  #view = $state.raw<ForwardView | null>(null);
  #error = $state<string | null>(null);
  #testing = $state<string | null>(null);
  #results = $state.raw<Record<string, ForwardTestResult>>({});

  constructor(api: FleetApi | undefined) {
    this.#api = api;
  }

  get view(): ForwardView | null {
    return this.#view;
  }
  get error(): string | null {
    return this.#error;
  }
  get testing(): string | null {
    return this.#testing;
  }
  result(id: string): ForwardTestResult | null {
    return this.#results[id] ?? null;
  }

  async load(): Promise<void> {
    if (!this.#api) return;
    try {
      this.#view = await this.#api.invoke('forward:list');
      this.#error = null;
    } catch (e) {
      this.#error = invokeErrorText(e);
    }
  }

  async test(id: string): Promise<void> {
    if (!this.#api || this.#testing !== null) return;
    this.#testing = id;
    try {
      const result = await this.#api.invoke('forward:test', id);
      this.#results = { ...this.#results, [id]: result };
    } catch (e) {
      this.#results = { ...this.#results, [id]: { ok: false, message: invokeErrorText(e) } };
    } finally {
      this.#testing = null;
    }
    await this.load();
  }
}
