/**
 * Browser mode's link to its server as the window shows it: live, down since when and retrying when,
 * or refused because the server now has another session token. Reactive state for the header; the
 * stream keeper (web-stream.ts) decides, this only holds what it said. Electron has no such link (its
 * engine host's restarts are notices of their own), so there the window gets none.
 */
import type { LinkState, LinkStatus } from './web-stream.ts';

export class WebLink {
  #status = $state.raw<LinkStatus>({ state: 'connecting', since: null, retryAt: null });
  readonly #back = new Set<() => void>();

  get state(): LinkState {
    return this.#status.state;
  }
  get since(): number | null {
    return this.#status.since;
  }
  get retryAt(): number | null {
    return this.#status.retryAt;
  }
  /** The window's data may be old: the stream is not open. */
  get down(): boolean {
    return this.#status.state === 'down' || this.#status.state === 'token-changed';
  }

  /** The keeper's word (web-fleet.ts wires it). */
  set(status: LinkStatus): void {
    this.#status = status;
  }

  /** Listens for the stream coming back after a break; returns the unsubscribe. */
  onBack(listener: () => void): () => void {
    this.#back.add(listener);
    return () => this.#back.delete(listener);
  }

  back(): void {
    for (const listener of this.#back) listener();
  }
}
