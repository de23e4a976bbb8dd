/**
 * The window's view of the engine: the fleet snapshot, app info, alert log and notices.
 * Loads once at start, then follows the host's push events; every write goes through `window.fleet`.
 * Private runes, read through getters; what is computed from them is `$derived`.
 */
import type { Alert, SnoozeUntil } from '../../common/alerts.ts';
import type { ContextSnapshot, FleetSnapshot } from '../../common/fleet.ts';
import { FleetStream } from '../../common/fleet-stream.ts';
import type { SyncedSnapshot } from '../../common/fleet-sync.ts';
import type { AppInfo, FleetApi, PushEvents } from '../../common/ipc.ts';
import { t } from '../i18n/i18n.svelte.ts';
import { sortContexts } from '../lib/contexts.ts';
import { invokeErrorText } from '../lib/invoke-error.ts';

export interface Notice {
  id: number;
  level: PushEvents['app:notice']['level'];
  message: string;
}

export type LoadState = 'disconnected' | 'loading' | 'ready' | 'failed';

export class FleetStore {
  #api: FleetApi | undefined;
  #snapshot = $state.raw<FleetSnapshot | null>(null);
  #info = $state.raw<AppInfo | null>(null);
  #alerts = $state.raw<Alert[]>([]);
  #notices = $state.raw<Notice[]>([]);
  #load = $state<LoadState>('loading');
  #error = $state<string | null>(null);
  /** Chosen here but not yet confirmed by the host, so a click feels instant. */
  #pendingFocus = $state<string | null>(null);
  #nextNotice = 1;
  #recovering = false;
  #off: (() => void)[] = [];
  /** The fleet stream: whole snapshots and deltas in, the snapshot to show out. */
  readonly #stream: FleetStream;

  #sorted = $derived(sortContexts(this.#snapshot?.contexts ?? []));
  /** The pending focus while it names a context, else the host's, else the first card. */
  #focusedName = $derived.by(() => {
    const names = this.#sorted.map((c) => c.context);
    for (const n of [this.#pendingFocus, this.#snapshot?.focused ?? null]) {
      if (n && names.includes(n)) return n;
    }
    return names[0] ?? null;
  });
  #focused = $derived(this.#sorted.find((c) => c.context === this.#focusedName) ?? null);

  constructor(api: FleetApi | undefined) {
    this.#api = api;
    if (!api) this.#load = 'disconnected';
    this.#stream = new FleetStream(
      () => (api ? api.invoke('fleet:snapshot') : Promise.reject(new Error('no host'))),
      (s) => this.#shown(s),
      (e) => this.#addNotice('error', t('errors.resync', { message: invokeErrorText(e, t) })),
    );
  }

  get current(): FleetSnapshot | null {
    return this.#snapshot;
  }
  get info(): AppInfo | null {
    return this.#info;
  }
  get alerts(): Alert[] {
    return this.#alerts;
  }
  get notices(): Notice[] {
    return this.#notices;
  }
  get load(): LoadState {
    return this.#load;
  }
  get error(): string | null {
    return this.#error;
  }
  get api(): FleetApi | undefined {
    return this.#api;
  }

  /** The contexts in card order. */
  get sorted(): ContextSnapshot[] {
    return this.#sorted;
  }
  get focusedName(): string | null {
    return this.#focusedName;
  }
  get focused(): ContextSnapshot | null {
    return this.#focused;
  }

  /** Subscribes to pushes first (so nothing is missed), then loads. Returns the unsubscribe. */
  async start(): Promise<() => void> {
    const api = this.#api;
    if (!api) return () => undefined;
    this.#off = [
      api.on('fleet:snapshot', (s) => this.#stream.take(s)),
      api.on('fleet:delta', (d) => this.#stream.delta(d)),
      api.on('fleet:mark', (m) => this.#stream.markSeen(m)),
      api.on('alerts:new', (a) => this.#addAlert(a)),
      api.on('app:notice', (n) => this.#addNotice(n.level, n.message)),
    ];
    try {
      // The stream's own read: a delta that comes first waits for it instead of asking again.
      const [, info] = await Promise.all([this.#stream.sync(), api.invoke('app:info')]);
      this.#info = info;
      for (const m of info.notices) this.#addNotice('warning', m);
      this.#load = 'ready';
    } catch (e) {
      this.#error = invokeErrorText(e, t);
      this.#load = 'failed';
      // A snapshot that comes while it is failed tries again (#recover).
      if (this.#snapshot !== null) this.#recover();
    }
    this.#loadAlertLog(api);
    return () => this.stop();
  }

  /**
   * The host is reachable again after a break (browser mode's server came back, maybe restarted): reads
   * the app info and the alert log it missed. The fleet catches up on the stream itself: the new stream
   * names the page's place, and a server past it (or a new one: another epoch) sends a whole snapshot.
   */
  async resync(): Promise<void> {
    const api = this.#api;
    if (!api) return;
    try {
      this.#info = await api.invoke('app:info');
      this.#error = null;
      this.#load = 'ready';
    } catch (e) {
      this.#addNotice('error', t('errors.resync', { message: invokeErrorText(e, t) }));
      return;
    }
    this.#loadAlertLog(api);
  }

  stop(): void {
    for (const off of this.#off) off();
    this.#off = [];
  }

  /** Makes `context` the focused one, here at once and in the host (which answers a snapshot). */
  async focus(context: string): Promise<void> {
    this.#pendingFocus = context;
    if (!this.#api) return;
    try {
      this.#setSnapshot(await this.#api.invoke('fleet:focus', context));
    } catch (e) {
      this.#addNotice('error', t('errors.focus', { context, message: invokeErrorText(e, t) }));
    }
  }

  /** Focuses the n-th card of the overview (1-based), as the number keys do. */
  focusIndex(n: number): boolean {
    const ctx = this.#sorted[n - 1];
    if (!ctx) return false;
    void this.focus(ctx.context);
    return true;
  }

  dismissNotice(id: number): void {
    this.#notices = this.#notices.filter((n) => n.id !== id);
  }

  /** Installs the GpuInventory CRD in a context; returns one sentence saying what happened. */
  async installCrd(context: string): Promise<string> {
    if (!this.#api) return t('errors.notConnected');
    try {
      const r = await this.#api.invoke('writeback:install', context);
      return r.crd === 'created'
        ? 'CRD installed; writing the inventory.'
        : 'The CRD was already there; writing the inventory.';
    } catch (e) {
      return t('errors.installCrd', { message: invokeErrorText(e, t) });
    }
  }

  /** Allows write-back in a context to take over another manager's fields; one sentence on what happened. */
  async takeOver(context: string): Promise<string> {
    if (!this.#api) return t('errors.notConnected');
    try {
      this.#setSnapshot(await this.#api.invoke('writeback:take-over', context, true));
      return 'Take-over is on for this context; writing the inventory.';
    } catch (e) {
      return t('errors.takeOver', { message: invokeErrorText(e, t) });
    }
  }

  /** Pauses every context's alerts for `ms`, or resumes them (`null`). */
  async snooze(ms: number | null): Promise<void> {
    if (!this.#api) return;
    try {
      this.#setSnapshot(
        ms === null
          ? await this.#api.invoke('alerts:resume', null)
          : await this.#api.invoke('alerts:snooze', null, { kind: 'for', ms }),
      );
    } catch (e) {
      this.#addNotice('error', t('errors.pause', { message: invokeErrorText(e, t) }));
    }
  }

  /** Pauses one context's alerts (the card's menu), or resumes them (`until` null). */
  async pauseContext(context: string, until: SnoozeUntil | null): Promise<void> {
    if (!this.#api) return;
    try {
      this.#setSnapshot(
        until === null
          ? await this.#api.invoke('alerts:resume', context)
          : await this.#api.invoke('alerts:snooze', context, until),
      );
    } catch (e) {
      this.#addNotice('error', t('clusterPause.failed', { context, message: invokeErrorText(e, t) }));
    }
  }

  /**
   * An invoke's answer: taken unless the stream already holds it or something newer. Either way it
   * confirms a pending focus it shows (a focus the host already had pushes nothing).
   */
  #setSnapshot(s: SyncedSnapshot): void {
    this.#stream.take(s);
    if (this.#pendingFocus && s.focused === this.#pendingFocus) this.#pendingFocus = null;
  }

  #shown(s: FleetSnapshot): void {
    this.#snapshot = s;
    if (this.#pendingFocus && s.focused === this.#pendingFocus) this.#pendingFocus = null;
    if (this.#load === 'failed') this.#recover();
  }

  /**
   * The first load failed (the engine was down or restarting) and a snapshot has come since: the engine
   * answers again, so the window loads what it missed instead of staying on "disconnected".
   */
  #recover(): void {
    const api = this.#api;
    if (!api || this.#recovering) return;
    this.#recovering = true;
    api
      .invoke('app:info')
      .then(
        (info) => {
          this.#info = info;
          for (const m of info.notices) this.#addNotice('warning', m);
          this.#error = null;
          this.#load = 'ready';
          this.#loadAlertLog(api);
        },
        // Still failing: the next snapshot tries again.
        () => undefined,
      )
      .finally(() => {
        this.#recovering = false;
      })
      .catch(() => undefined);
  }

  #loadAlertLog(api: FleetApi): void {
    api.invoke('alerts:log').then(
      (log) => {
        if (Array.isArray(log)) for (const a of log) this.#addAlert(a);
      },
      (e: unknown) => this.#addNotice('error', t('errors.alertLog', { message: invokeErrorText(e, t) })),
    );
  }

  #addAlert(a: Alert): void {
    if (this.#alerts.some((x) => x.id === a.id)) return;
    this.#alerts = [a, ...this.#alerts].sort((x, y) => Date.parse(y.at) - Date.parse(x.at));
  }

  #addNotice(level: Notice['level'], message: string): void {
    if (this.#notices.some((n) => n.message === message)) return;
    this.#notices = [...this.#notices, { id: this.#nextNotice++, level, message }];
  }
}
