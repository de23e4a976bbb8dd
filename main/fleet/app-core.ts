/**
 * The application around the engine, shared by the desktop shell and browser mode: kubeconfig (watched
 * for edits), settings (monitored contexts, rules, snoozes, last-known inventories, alert log), the
 * engine, and the typed contract the window talks to. Nothing here imports Electron.
 */

import type { Alert } from '../../common/alerts.ts';
import { copyDict, dict, withKey, withoutKey } from '../../common/dict.ts';
import { KUBECTL_CONTEXTS_MAX, type KubectlContexts } from '../../common/fleet.ts';
import type { SyncedSnapshot } from '../../common/fleet-sync.ts';
import type { ForwardTargetSetting, ForwardTestResult, ForwardView } from '../../common/forwarding.ts';
import type { AppInfo } from '../../common/ipc.ts';
import {
  controllerNamespaceFor,
  freeGpusOn,
  sourceFor,
  takeOverOptedIn,
  writeBackOptedIn,
} from '../../common/settings.ts';
import { appendAlerts } from '../alerts/alert-log.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import type { Forwarder } from '../forward/forwarder.ts';
import { type Clock, systemClock } from '../kube/clock.ts';
import { contextInfos, type KubeconfigLocateOptions, loadKubeconfig } from '../kube/kubeconfig.ts';
import type { KubeconfigLoad, ResolvedContext } from '../kube/kubeconfig-types.ts';
import { type KubeconfigWatch, watchKubeconfig } from '../kube/kubeconfig-watch.ts';
import { shownPath, useContext, useContextFile } from '../kube/use-context.ts';
import type { SettingsStore } from '../settings/store.ts';
import { TimelineRecorder } from '../timeline/recorder.ts';
import { WritebackHub } from '../writeback/hub.ts';
import type { WriteEvent } from '../writeback/index.ts';
import { createHandlers } from './app-handlers.ts';
import { type EngineOptions, FleetEngine, type LastKnown } from './engine.ts';
import { timelineDeliveries } from './forward-timeline.ts';
import { type FleetHost, PushHub, type PushListener } from './host.ts';
import { missingContexts, monitoredContexts } from './monitored.ts';
import { mergeReload } from './reload.ts';
import { SnapshotPublisher } from './snapshot-publisher.ts';
import { TimelineLink } from './timeline-link.ts';

/** What the desktop app's forwarding adds: the window edits its targets (main/forward/desktop-forwarding.ts). */
export interface ForwardEditing {
  save(target: ForwardTargetSetting): ForwardView;
  remove(id: string): ForwardView;
}

const NO_EDITING =
  'Forwarding targets are set with gpu-fleet serve --forward here; the desktop app edits them in its settings.';

export interface AppCoreOptions {
  settings: SettingsStore;
  kubeconfig: KubeconfigLocateOptions;
  mode: AppInfo['mode'];
  version: string;
  demo?: boolean;
  clock?: Clock;
  engine?: Omit<EngineOptions, 'clock' | 'rules'>;
  /** Re-read the kubeconfig when its files change (off in one-shot tools and some tests). */
  watchFiles?: boolean;
  /** Persist last-known inventories at most this often. */
  saveEveryMs?: number;
  /** Every status / ConfigMap write made or skipped by write-back (for logs). */
  onWrite?: (event: WriteEvent) => void;
  /** The OS's preferred languages (desktop app), told to the window in `app:info`. */
  systemLanguages?: string[];
  /**
   * The alert forwarder (main/forward): it gets every alert that notifies (after the hold-down and flap
   * damping, not while paused), so one decision makes the notification and every forwarded message;
   * the window lists its targets and sends a test through it.
   */
  forwarder?: Pick<Forwarder, 'forward' | 'view' | 'test' | 'addRecorder'> & Partial<ForwardEditing>;
  /**
   * The data folder the timeline database is written in (the engine host's, browser mode's); none: no
   * timeline (one-shot tools, most tests).
   */
  timelineDir?: string;
}

export class AppCore implements FleetHost {
  readonly engine: FleetEngine;
  readonly handlers;
  readonly #opts: AppCoreOptions;
  readonly #clock: Clock;
  readonly #push = new PushHub();
  /** The window's fleet stream: one whole snapshot, then numbered deltas. */
  readonly #publisher = new SnapshotPublisher((channel, payload) => this.#push.emit(channel, payload));
  readonly #writeback: WritebackHub;
  #load: KubeconfigLoad;
  #watch: KubeconfigWatch | null = null;
  #saveTimer: unknown = null;
  #notices: string[] = [];
  /** Why the last kubectl context switch failed, until the next switch or re-read. */
  #kubectlError: string | null = null;
  /** The engine's events into the timeline database, when the host records one. */
  readonly timeline: TimelineLink | null;
  /** A damaged timeline file moved aside: said in the notices for as long as the app runs. */
  readonly #timelineNotices: string[] = [];

  constructor(opts: AppCoreOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    const s = opts.settings;
    this.engine = new FleetEngine({
      // Read at every setContexts: a changed source setting restarts that context's monitor.
      source: (ctx) => ({
        setting: sourceFor(s.get('source'), ctx.name),
        namespace: controllerNamespaceFor(s.get('controllerNamespace'), ctx.name),
        group: s.get('crdGroup'),
      }),
      freeGpus: (ctx) => freeGpusOn(s.get('freeGpus'), ctx.name),
      mergeSameCluster: () => s.get('mergeSameCluster'),
      // The timeline keeps the events about GPU nodes: watched only where it is recorded.
      nodeEvents: opts.timelineDir !== undefined,
      ...opts.engine,
      clock: this.#clock,
      rules: { ...opts.settings.get('alertRules') },
      telemetry: () => opts.settings.get('telemetry'),
    });
    this.engine.setSnoozeState(opts.settings.get('alertsPaused'));
    this.#load = loadKubeconfig(opts.kubeconfig);
    this.handlers = createHandlers(this);
    this.#writeback = new WritebackHub(this.engine, { clock: this.#clock }, opts.onWrite);
    this.timeline = opts.timelineDir === undefined ? null : this.#timeline(opts.timelineDir);
    // Forwarded messages' outcomes are kept with their alerts in the timeline.
    if (this.timeline) opts.forwarder?.addRecorder(timelineDeliveries(this.timeline.recorder));
    this.engine.on((event) => {
      if (event.type === 'snapshot') {
        this.#publisher.publish(event.snapshot);
        this.#scheduleSave();
      } else if (event.type === 'alert') this.#onAlert(event.alert);
    });
  }

  /** The forwarding targets and their delivery state (none when the host forwards nothing). */
  forwardView(): ForwardView {
    return this.#opts.forwarder?.view() ?? { targets: [], status: [] };
  }

  /** "Send test" of the window: one sentence either way. */
  async forwardTest(id: string): Promise<ForwardTestResult> {
    if (!this.#opts.forwarder) return { ok: false, message: 'No alert forwarding targets are set up.' };
    return this.#opts.forwarder.test(id);
  }

  forwardSave(target: ForwardTargetSetting): ForwardView {
    const save = this.#opts.forwarder?.save;
    if (!save) throw new Error(NO_EDITING);
    return save.call(this.#opts.forwarder, target);
  }

  forwardRemove(id: string): ForwardView {
    const remove = this.#opts.forwarder?.remove;
    if (!remove) throw new Error(NO_EDITING);
    return remove.call(this.#opts.forwarder, id);
  }

  get settings(): SettingsStore {
    return this.#opts.settings;
  }
  get kubeconfig(): KubeconfigLoad {
    return this.#load;
  }

  onPush(listener: PushListener): () => void {
    return this.#push.on(listener);
  }

  /**
   * The engine's snapshot as published to windows, stamped with its place in the stream: what changed
   * since the last push is pushed first, so an invoke's answer is never ahead of the stream.
   */
  published(): SyncedSnapshot {
    return this.#publisher.publish(this.engine.snapshot());
  }

  /** Notices the user must see: moved-aside settings, kubeconfig problems, contexts that vanished. */
  notices(): string[] {
    return this.#notices;
  }

  info(): AppInfo {
    const info: AppInfo = {
      version: this.#opts.version,
      mode: this.#opts.mode,
      demo: this.#opts.demo ?? false,
      noKubeconfig: this.#load.kind === 'none',
      notices: this.#notices,
    };
    if (this.#opts.systemLanguages) info.systemLanguages = [...this.#opts.systemLanguages];
    return info;
  }

  contextList() {
    if (this.#load.kind === 'none') return [];
    const monitored = new Set(this.#monitored().map((c) => c.name));
    return contextInfos(this.#load, (name) => monitored.has(name));
  }

  start(): void {
    this.timeline?.recorder.start();
    this.applyContexts();
    if (this.#opts.watchFiles !== false) {
      this.#watch = watchKubeconfig({ ...this.#opts.kubeconfig, clock: this.#clock }, (load) =>
        this.#reloaded(load),
      );
    }
  }

  #reloaded(load: KubeconfigLoad): void {
    this.#load = mergeReload(this.#load, load);
    this.applyContexts();
    this.#push.emit('kubectl:contexts', this.kubectlContexts());
  }

  /** kubectl's contexts and the current one, as the tray and the window list them. */
  kubectlContexts(): KubectlContexts {
    const names = this.#load.kind === 'loaded' ? this.#load.contexts.map((c) => c.name) : [];
    const file = this.#load.kind === 'loaded' ? useContextFile(this.#opts.kubeconfig) : null;
    return {
      current: this.#load.kind === 'loaded' ? this.#load.currentContext : null,
      contexts: names.slice(0, KUBECTL_CONTEXTS_MAX),
      more: Math.max(0, names.length - KUBECTL_CONTEXTS_MAX),
      error: this.#kubectlError,
      ...(file === null ? {} : { file: shownPath(file) }),
    };
  }

  /**
   * Sets kubectl's current context because the user picked it (the only path that writes a kubeconfig),
   * then re-reads the kubeconfig at once instead of waiting for the file watch. Throws the refusal's
   * `{kind, message}`; the sentence also stays in `kubectlContexts().error` for the tray.
   */
  useKubectlContext(name: string): KubectlContexts {
    try {
      useContext(name, this.#opts.kubeconfig);
      this.#kubectlError = null;
    } catch (error) {
      this.#kubectlError = error instanceof Error ? error.message : String(error);
      this.#push.emit('kubectl:contexts', this.kubectlContexts());
      throw error;
    }
    this.#reloaded(loadKubeconfig(this.#opts.kubeconfig));
    return this.kubectlContexts();
  }

  /** (Re)computes the monitored set from settings and kubeconfig and hands it to the engine. */
  applyContexts(): void {
    const lastKnown = dict<LastKnown>(
      Object.entries(this.settings.get('lastKnown')).map(([name, entry]) => [
        name,
        { inventory: entry.inventory },
      ]),
    );
    const monitored = this.#monitored();
    this.engine.setContexts(monitored, lastKnown);
    this.#applyWriteback(monitored);
    this.#refreshNotices();
  }

  /** Installs the CRD for a context whose write-back is on; throws one sentence when it cannot. */
  async installCrd(
    context: string,
  ): Promise<{ crd: 'created' | 'existing'; object: 'created' | 'existing' }> {
    const writer = this.#writeback.get(context);
    if (!writer) throw new Error(`Turn write-back on for "${context}" first.`);
    const { crd, object } = await writer.install();
    return { crd, object };
  }

  /**
   * Allows (or stops allowing) write-back in `context` to take over what another field manager owns;
   * saved per context, and that context's write-back restarts with it. Throws one sentence when
   * write-back is off there (there is nothing to take over with).
   */
  setTakeOver(context: string, on: boolean): void {
    if (on && !writeBackOptedIn(this.settings.get('writeBack'), context))
      throw new Error(`Turn write-back on for "${context}" first.`);
    const current = this.settings.get('writeBackTakeOver');
    const takeOver = on ? withKey(current, context, true) : withoutKey(current, context);
    this.settings.update({ writeBackTakeOver: takeOver });
    this.applyWriteback();
  }

  /** Starts, restarts or stops write-back per context after a settings change (opt-in per context). */
  applyWriteback(): void {
    this.#applyWriteback(this.#monitored());
  }

  #applyWriteback(monitored: ResolvedContext[]): void {
    const s = this.settings;
    // One cluster, one writer: a context merged into another's card is written through that one.
    const watched = monitored.filter((ctx) => this.engine.watchedAs(ctx.name) === ctx.name);
    this.#writeback.set(watched, (ctx) =>
      writeBackOptedIn(s.get('writeBack'), ctx.name)
        ? {
            group: s.get('crdGroup'),
            configMapNamespace: s.get('configMapNamespace'),
            // Never on by default: only the user's own `true` for this context forces an apply.
            ...(takeOverOptedIn(s.get('writeBackTakeOver'), ctx.name) ? { takeOver: true } : {}),
          }
        : null,
    );
  }

  stop(): void {
    this.#watch?.close();
    this.#watch = null;
    if (this.#saveTimer !== null) this.#clock.clearTimeout(this.#saveTimer);
    this.#saveTimer = null;
    this.saveLastKnown();
    this.#writeback.stop();
    this.engine.stop();
    this.timeline?.recorder.stop();
  }

  /** Keeps each context's latest inventory so the next launch shows it (stale) while it connects. */
  saveLastKnown(): void {
    const lastKnown = copyDict(this.settings.get('lastKnown'));
    for (const ctx of this.engine.snapshot().contexts) {
      if (ctx.inventory && !ctx.stale)
        lastKnown[ctx.context] = { at: new Date(this.#clock.now()).toISOString(), inventory: ctx.inventory };
    }
    this.#safeUpdate(() => this.settings.update({ lastKnown }));
  }

  #timeline(dir: string): TimelineLink {
    const recorder = new TimelineRecorder({
      dir,
      clock: this.#clock,
      settings: () => this.settings.get('timeline'),
      // The engine host's loop must not wait for a checkpoint's disk sync (bench row 11a).
      checkpointInWorker: true,
      onNotice: (message) => {
        this.#timelineNotices.push(message);
        this.#refreshNotices();
        this.#push.emit('app:notice', { level: 'warning', message });
      },
      // The monitor runs on; the History view shows the state, and the user is told once per change.
      onStatus: (s) => {
        if (s.state === 'recording') return;
        const message = s.state === 'read-only' ? s.reason : `The timeline is not recording: ${s.reason}.`;
        this.#push.emit('app:notice', { level: 'warning', message });
      },
    });
    return new TimelineLink(recorder, this.engine, this.#clock);
  }

  #monitored() {
    if (this.#load.kind === 'none') return [];
    return monitoredContexts(this.settings.get('contexts'), this.#load.contexts, this.#load.currentContext);
  }

  #refreshNotices(): void {
    const notices = this.settings.notices.map((n) => n.message);
    if (this.#load.kind === 'loaded') {
      notices.push(...this.#load.warnings.map((w) => w.message), ...this.#load.errors.map((e) => e.message));
      for (const name of missingContexts(this.settings.get('contexts'), this.#load.contexts)) {
        notices.push(`The monitored context "${name}" is no longer in your kubeconfig.`);
      }
    }
    this.#notices = [...notices, ...this.#timelineNotices];
  }

  #onAlert(alert: PolicyAlert): void {
    this.#safeUpdate(() =>
      this.settings.update({ alertLog: appendAlerts(this.settings.get('alertLog'), [alert]) }),
    );
    const { suppressed, ...plain } = alert;
    this.#push.emit('alerts:new', plain satisfies Alert);
    // What the Electron notifier would show: browser mode's notifier listens to this one only.
    if (suppressed) return;
    this.#push.emit('alerts:notify', plain);
    this.#opts.forwarder?.forward(plain);
  }

  #scheduleSave(): void {
    if (this.#saveTimer !== null) return;
    this.#saveTimer = this.#clock.setTimeout(() => {
      this.#saveTimer = null;
      this.saveLastKnown();
    }, this.#opts.saveEveryMs ?? 30_000);
  }

  /** A settings write that fails (disk full, read-only) must not stop monitoring; the user is told. */
  #safeUpdate(write: () => void): void {
    try {
      write();
    } catch (error) {
      const message = `Settings could not be saved: ${error instanceof Error ? error.message : String(error)}`;
      this.#push.emit('app:notice', { level: 'error', message });
    }
  }
}
