/**
 * The open node detail: which node, its last answer, and the one refresh timer. The detail is fetched
 * when it opens and every `intervalMs` while it stays open and the window is visible; closing clears
 * the timer, so a closed panel costs nothing, and a hidden window (the tray popover put away) pauses it. An answer that arrives after the user closed or switched nodes is dropped.
 */
import type { NodeDetail } from '../../common/node-detail.ts';
import { t } from '../i18n/i18n.svelte.ts';
import { invokeErrorText } from '../lib/invoke-error.ts';

export type LoadDetail = (context: string, node: string) => Promise<NodeDetail>;
export type DetailPhase = 'closed' | 'loading' | 'ready' | 'error';

export interface DetailTarget {
  context: string;
  node: string;
}

export const REFRESH_MS = 10_000;

export class NodeDetailState {
  #load: LoadDetail;
  #intervalMs: number;
  #target = $state.raw<DetailTarget | null>(null);
  #detail = $state.raw<NodeDetail | null>(null);
  #error = $state<string | null>(null);
  /** The generation whose request is in flight, or null. */
  #pending = $state<number | null>(null);
  #phase: DetailPhase = $derived(
    !this.#target ? 'closed' : this.#detail ? 'ready' : this.#error ? 'error' : 'loading',
  );
  #timer: ReturnType<typeof setInterval> | null = null;
  /** Bumped on every open and close: answers carry the generation they were asked in. */
  #generation = 0;
  #visible = true;

  constructor(load: LoadDetail, intervalMs = REFRESH_MS) {
    this.#load = load;
    this.#intervalMs = intervalMs;
  }

  get target(): DetailTarget | null {
    return this.#target;
  }
  get detail(): NodeDetail | null {
    return this.#detail;
  }
  /** The last failure in one sentence; kept next to an older answer when only a refresh failed. */
  get error(): string | null {
    return this.#error;
  }
  get refreshing(): boolean {
    return this.#pending !== null && this.#pending === this.#generation;
  }
  get isOpen(): boolean {
    return this.#target !== null;
  }
  get phase(): DetailPhase {
    return this.#phase;
  }

  /** Opens (or switches to) a node: fetches now, then every interval until closed. */
  open(context: string, node: string): void {
    const same = this.#target?.context === context && this.#target.node === node;
    this.#stopTimer();
    this.#generation++;
    this.#target = { context, node };
    if (!same) this.#detail = null;
    this.#error = null;
    if (this.#visible) this.#startRefresh();
  }

  /** The window was hidden (pause: no timer, no reads) or shown again (read now, then every interval). */
  setVisible(visible: boolean): void {
    if (visible === this.#visible) return;
    this.#visible = visible;
    this.#stopTimer();
    if (visible && this.#target) this.#startRefresh();
  }

  close(): void {
    this.#stopTimer();
    this.#generation++;
    this.#target = null;
    this.#detail = null;
    this.#error = null;
    this.#pending = null;
  }

  #startRefresh(): void {
    this.#fetch();
    this.#timer = setInterval(() => this.#fetch(), this.#intervalMs);
  }

  #stopTimer(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  #fetch(): void {
    const target = this.#target;
    const generation = this.#generation;
    // One request at a time per open: a slow cluster must not pile up refreshes.
    if (!target || this.#pending === generation) return;
    this.#pending = generation;
    this.#load(target.context, target.node).then(
      (detail) => {
        if (generation !== this.#generation) return;
        this.#detail = detail;
        this.#error = null;
        this.#pending = null;
      },
      (e: unknown) => {
        if (generation !== this.#generation) return;
        this.#error = t('errors.readNode', {
          node: target.node,
          context: target.context,
          message: invokeErrorText(e, t),
        });
        this.#pending = null;
      },
    );
  }
}
