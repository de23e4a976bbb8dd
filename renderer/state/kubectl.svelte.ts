/**
 * The window's view of kubectl's current context: the list the host sends (after every kubeconfig
 * re-read and switch) and a switch the user asks for. Switching writes the user's kubeconfig (kubectl's
 * context for every terminal), so a pick only asks (`ask`): the write happens on `confirm`, from the
 * dialog that names the file and the new context.
 */
import type { KubectlContexts } from '../../common/fleet.ts';
import type { FleetApi } from '../../common/ipc.ts';
import { t } from '../i18n/i18n.svelte.ts';
import { invokeErrorText } from '../lib/invoke-error.ts';

export interface KubectlMessage {
  ok: boolean;
  text: string;
}

export class KubectlStore {
  #api: FleetApi | undefined;
  #contexts = $state.raw<KubectlContexts | null>(null);
  #busy = $state(false);
  #message = $state.raw<KubectlMessage | null>(null);
  /** The context the user picked and has not confirmed yet. */
  #asking = $state<string | null>(null);

  constructor(api: FleetApi | undefined) {
    this.#api = api;
  }

  get contexts(): KubectlContexts | null {
    return this.#contexts;
  }
  get busy(): boolean {
    return this.#busy;
  }
  get message(): KubectlMessage | null {
    return this.#message;
  }
  get asking(): string | null {
    return this.#asking;
  }

  /** The user picked `name`: ask before writing (nothing is written yet). */
  ask(name: string): void {
    if (this.#contexts?.contexts.includes(name) && name !== this.#contexts.current) this.#asking = name;
  }
  cancel(): void {
    this.#asking = null;
  }
  /** The user confirmed the dialog: writes the kubeconfig. */
  async confirm(): Promise<boolean> {
    const name = this.#asking;
    this.#asking = null;
    return name === null ? false : this.use(name);
  }

  /** Follows the host's pushes, then loads the list. Returns the unsubscribe. */
  async start(): Promise<() => void> {
    const api = this.#api;
    if (!api) return () => undefined;
    const off = api.on('kubectl:contexts', (c) => {
      this.#contexts = c;
    });
    await this.refresh();
    return off;
  }

  /** Reads the list again (browser mode, after its server came back). */
  async refresh(): Promise<void> {
    if (!this.#api) return;
    try {
      this.#contexts = await this.#api.invoke('kubectl:contexts');
    } catch (e) {
      this.#message = { ok: false, text: t('kubectl.loadFailed', { reason: invokeErrorText(e, t) }) };
    }
  }

  /** Sets kubectl's current context; true when it was set, else the host's sentence is the message. */
  async use(name: string): Promise<boolean> {
    if (!this.#api || this.#busy) return false;
    this.#busy = true;
    try {
      this.#contexts = await this.#api.invoke('kubectl:use-context', name);
      this.#message = { ok: true, text: t('kubectl.switched', { context: name }) };
      return true;
    } catch (e) {
      this.#message = { ok: false, text: invokeErrorText(e, t) };
      return false;
    } finally {
      this.#busy = false;
    }
  }
}
