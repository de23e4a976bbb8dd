/**
 * The History view's timeline: the chosen range and the view read for it (`timeline:range`). The view
 * that shows it reads again in place when the range or the context changes (no reload); an answer that
 * arrives after a newer request is dropped, so a quick switch never shows the older range.
 */
import type { FleetApi } from '../../common/ipc.ts';
import type { TimelineRangeName, TimelineView } from '../../common/timeline.ts';
import { t } from '../i18n/i18n.svelte.ts';
import { invokeErrorText } from '../lib/invoke-error.ts';

export class TimelineState {
  #api: FleetApi | undefined;
  #range = $state<TimelineRangeName>('24h');
  #view = $state.raw<TimelineView | null>(null);
  #error = $state<string | null>(null);
  #loading = $state(false);
  #asked = 0;

  constructor(api: FleetApi | undefined, range: TimelineRangeName = '24h') {
    this.#api = api;
    this.#range = range;
  }

  get range(): TimelineRangeName {
    return this.#range;
  }
  get view(): TimelineView | null {
    return this.#view;
  }
  get error(): string | null {
    return this.#error;
  }
  get loading(): boolean {
    return this.#loading;
  }

  /** The view that shows it reads the new range (it follows `range`). */
  set range(range: TimelineRangeName) {
    this.#range = range;
  }

  async load(context: string, node?: string): Promise<void> {
    if (!this.#api) return;
    const asked = ++this.#asked;
    this.#loading = true;
    try {
      const view = await this.#api.invoke('timeline:range', {
        context,
        range: this.#range,
        ...(node === undefined ? {} : { node }),
      });
      if (asked !== this.#asked) return;
      this.#view = view;
      this.#error = null;
    } catch (error) {
      if (asked !== this.#asked) return;
      this.#error = invokeErrorText(error, t);
    } finally {
      if (asked === this.#asked) this.#loading = false;
    }
  }
}
