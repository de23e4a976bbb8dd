/**
 * The window's view of alert forwarding: the host's targets (no secret ever crosses) with their delivery
 * state, and the "Send test" the user asks for, one at a time per target. In the desktop app it also
 * saves and removes targets and sets or clears a secret: write-only, the answer says only "set".
 */
import type { ErrorInfo } from '../../common/errors.ts';
import type { ForwardWords } from '../../common/forward-words.ts';
import type {
  ForwardSecretInput,
  ForwardTargetSetting,
  ForwardTestResult,
  ForwardView,
} from '../../common/forwarding.ts';
import type { FleetApi } from '../../common/ipc.ts';
import { t } from '../i18n/i18n.svelte.ts';
import { invokeError, invokeErrorText } from '../lib/invoke-error.ts';

export class ForwardingStore {
  #api: FleetApi | undefined;
  #view = $state.raw<ForwardView | null>(null);
  #error = $state.raw<ErrorInfo | null>(null);
  #testing = $state<string | null>(null);
  #results = $state.raw<Record<string, ForwardTestResult>>({});

  constructor(api: FleetApi | undefined) {
    this.#api = api;
  }

  get view(): ForwardView | null {
    return this.#view;
  }
  /** Why the view could not be read (worded by the component: refusalText). */
  get error(): ErrorInfo | null {
    return this.#error;
  }
  get testing(): string | null {
    return this.#testing;
  }
  result(id: string): ForwardTestResult | null {
    return this.#results[id] ?? null;
  }

  /** The desktop app: the targets can be edited here (browser mode takes them from its flags). */
  get editable(): boolean {
    return this.#view?.editable !== undefined;
  }

  /** Why secrets cannot be kept here (the desktop app without a keychain), known before one is typed. */
  get secretsUnavailable(): ForwardWords | null {
    return this.#view?.vault?.unavailable ?? null;
  }

  secretSet(id: string): boolean {
    return this.#view?.secretSet?.includes(id) ?? false;
  }

  /**
   * Runs one change; its refusal (the host's sentence, and its facts when it gave them) is returned for
   * the form to word (refusalText), else null.
   */
  async #change(run: (api: FleetApi) => Promise<ForwardView>): Promise<ErrorInfo | null> {
    if (!this.#api) return null;
    try {
      this.#view = await run(this.#api);
      return null;
    } catch (e) {
      return invokeError(e);
    }
  }

  save(target: ForwardTargetSetting): Promise<ErrorInfo | null> {
    return this.#change((api) => api.invoke('forward:save', target));
  }

  remove(id: string): Promise<ErrorInfo | null> {
    return this.#change((api) => api.invoke('forward:remove', id));
  }

  /** Sets (or, with null, clears) a target's secret; the window keeps no copy of it. */
  setSecret(id: string, secret: ForwardSecretInput | null): Promise<ErrorInfo | null> {
    return this.#change((api) => api.invoke('forward:secret', id, secret));
  }

  async load(): Promise<void> {
    if (!this.#api) return;
    try {
      this.#view = await this.#api.invoke('forward:list');
      this.#error = null;
    } catch (e) {
      this.#error = invokeError(e);
    }
  }

  async test(id: string): Promise<void> {
    if (!this.#api || this.#testing !== null) return;
    this.#testing = id;
    try {
      const result = await this.#api.invoke('forward:test', id);
      this.#results = { ...this.#results, [id]: result };
    } catch (e) {
      this.#results = { ...this.#results, [id]: { ok: false, message: invokeErrorText(e, t) } };
    } finally {
      this.#testing = null;
    }
    await this.load();
  }
}
