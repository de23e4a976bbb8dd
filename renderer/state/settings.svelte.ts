/**
 * The settings form: loads settings and kubeconfig contexts, keeps an editable draft, validates it,
 * saves it with `settings:update` and shows the host's own words when it refuses.
 */
import type { KubeContextInfo } from '../../common/fleet.ts';
import type { LanguageSetting } from '../../common/i18n/locales.ts';
import type { FleetApi } from '../../common/ipc.ts';
import type { SettingsView, Theme } from '../../common/settings.ts';
import { i18n, t } from '../i18n/i18n.svelte.ts';
import { invokeErrorText } from '../lib/invoke-error.ts';
import {
  draftFrom,
  type FieldErrors,
  patchFrom,
  type SettingsDraft,
  validate,
} from '../lib/settings-form.ts';

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'error'; message: string };

export class SettingsStore {
  #api: FleetApi | undefined;
  #saved = $state.raw<SettingsView | null>(null);
  #contexts = $state.raw<KubeContextInfo[]>([]);
  #draft = $state<SettingsDraft | null>(null);
  #loadError = $state<string | null>(null);
  #save = $state.raw<SaveState>({ kind: 'idle' });
  #touched = $state(false);

  // Reads the window's language, so the sentences follow a language switch.
  #errors: FieldErrors = $derived(this.#draft ? validate(this.#draft, i18n.tr) : {});
  #theme: Theme = $derived(this.#saved?.theme ?? 'system');
  #language: LanguageSetting = $derived(this.#saved?.language ?? 'auto');

  constructor(api: FleetApi | undefined) {
    this.#api = api;
  }

  get current(): SettingsView | null {
    return this.#saved;
  }
  /** The editable copy; bind form fields to its properties. */
  get draft(): SettingsDraft | null {
    return this.#draft;
  }
  get contexts(): KubeContextInfo[] {
    return this.#contexts;
  }
  get loadError(): string | null {
    return this.#loadError;
  }
  get saveState(): SaveState {
    return this.#save;
  }
  /** Errors show once the user tried to save, or as soon as a field is wrong after a change. */
  get showErrors(): boolean {
    return this.#touched;
  }
  get theme(): Theme {
    return this.#theme;
  }
  /** The saved language setting ('auto' until the settings are loaded). */
  get language(): LanguageSetting {
    return this.#language;
  }
  /** What is wrong with the draft, per field. */
  get errors(): FieldErrors {
    return this.#errors;
  }

  async load(): Promise<void> {
    const api = this.#api;
    if (!api) return;
    try {
      const [settings, contexts] = await Promise.all([
        api.invoke('settings:get'),
        api.invoke('contexts:list'),
      ]);
      this.#contexts = contexts;
      this.#setSaved(settings);
      this.#loadError = null;
    } catch (e) {
      this.#loadError = invokeErrorText(e, t);
    }
  }

  touch(): void {
    this.#touched = true;
    if (this.#save.kind !== 'saving') this.#save = { kind: 'idle' };
  }

  toggleMonitored(name: string, on: boolean): void {
    const d = this.#draft;
    if (!d) return;
    d.monitored = on ? [...new Set([...d.monitored, name])] : d.monitored.filter((n) => n !== name);
    this.touch();
  }

  /** Restores the last saved values. */
  reset(): void {
    if (this.#saved) this.#draft = draftFrom(this.#saved);
    this.#touched = false;
    this.#save = { kind: 'idle' };
  }

  async submit(): Promise<boolean> {
    const d = this.#draft;
    this.#touched = true;
    if (!d || !this.#api) return false;
    if (Object.keys(this.#errors).length > 0) {
      // Errors of no form field (too many contexts, a value the form cannot show) are said here.
      const { monitored, other } = this.#errors;
      this.#save = { kind: 'error', message: monitored ?? other ?? t('settings.needsAttention') };
      return false;
    }
    this.#save = { kind: 'saving' };
    try {
      this.#setSaved(await this.#api.invoke('settings:update', patchFrom(d)));
      this.#save = { kind: 'saved' };
      this.#touched = false;
      return true;
    } catch (e) {
      this.#save = { kind: 'error', message: invokeErrorText(e, t) };
      return false;
    }
  }

  #setSaved(s: SettingsView): void {
    this.#saved = s;
    this.#draft = draftFrom(s);
  }
}
