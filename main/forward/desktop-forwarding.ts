/**
 * The desktop app's forwarding, in the engine host: the targets come from the settings file (no secret),
 * their secrets from Electron main (over the host protocol, never stored here), and every change of
 * either rebuilds the forwarder. Undelivered messages stay in the one pending file across rebuilds; a
 * target that cannot run for now (its secret not set yet) keeps its queued messages there until it can,
 * and only removing the target drops them.
 */
import type { Alert } from '../../common/alerts.ts';
import type { ForwardWords } from '../../common/forward-words.ts';
import {
  FORWARD_TARGETS_MAX,
  type ForwardSecretInput,
  type ForwardTargetSetting,
  type ForwardTestResult,
  type ForwardView,
} from '../../common/forwarding.ts';
import { forwardWordsEnglish, refusal } from '../../common/i18n/forward-words-text.ts';
import { checkTargetSetting, resolveDesktopTargets } from './desktop-targets.ts';
import { Forwarder, type ForwarderOptions } from './forwarder.ts';
import type { PendingStore } from './pending-store.ts';
import type { QueueItem } from './queue.ts';
import type { DeliveryRecorder } from './recorder.ts';

export interface DesktopForwardingOptions {
  /** The targets as the settings file keeps them, and their save (throws a sentence when it cannot). */
  read(): readonly ForwardTargetSetting[];
  write(targets: ForwardTargetSetting[]): void;
  store: PendingStore;
  forwarder?: Omit<ForwarderOptions, 'store' | 'recorder'>;
}

/** Alerts that arrive before the secrets do (the first moments of a start) wait, this many at most. */
const EARLY_MAX = 100;

/**
 * The pending file as one forwarder at a time sees it: queues of targets the forwarder does not run
 * are kept as they were loaded, unless their target is gone from the settings.
 */
class KeepingStore implements PendingStore {
  #kept: Record<string, QueueItem[]> = {};
  constructor(
    private readonly inner: PendingStore,
    private readonly configured: () => Set<string>,
  ) {}
  load() {
    const loaded = this.inner.load();
    this.#kept = { ...this.#kept, ...loaded.queues };
    return loaded;
  }
  save(queues: Record<string, readonly QueueItem[]>): void {
    const ids = this.configured();
    const all: Record<string, readonly QueueItem[]> = {};
    for (const [id, items] of Object.entries(this.#kept)) if (ids.has(id)) all[id] = items;
    Object.assign(all, queues);
    this.#kept = Object.fromEntries(Object.entries(all).map(([id, q]) => [id, [...q]]));
    this.inner.save(all);
  }
}

export class DesktopForwarding {
  readonly #opts: DesktopForwardingOptions;
  readonly #store: KeepingStore;
  readonly #recorders = new Set<DeliveryRecorder>();
  #secrets: Record<string, ForwardSecretInput> | null = null;
  #forwarder: Forwarder | null = null;
  #problems: Record<string, ForwardWords> = {};
  #early: Alert[] = [];
  #stopped = false;

  constructor(opts: DesktopForwardingOptions) {
    this.#opts = opts;
    this.#store = new KeepingStore(opts.store, () => new Set(opts.read().map((t) => t.id)));
  }

  /** Why the undelivered messages of the last run could not be read, if they could not. */
  get notice(): string | null {
    return this.#forwarder?.notice ?? null;
  }

  /** The secrets Electron main holds, per target id: the first call starts forwarding. */
  setSecrets(secrets: Record<string, ForwardSecretInput>): void {
    this.#secrets = { ...secrets };
    this.#rebuild();
    for (const alert of this.#early.splice(0)) this.#forwarder?.forward(alert);
  }

  /** Adds or replaces a target (the window's form); a refusal throws its facts and their English. */
  save(target: ForwardTargetSetting): ForwardView {
    const problem = checkTargetSetting(target);
    if (problem) throw refusal(problem);
    const targets = this.#opts.read();
    const i = targets.findIndex((t) => t.id === target.id);
    if (i < 0 && targets.length >= FORWARD_TARGETS_MAX)
      throw refusal({ code: 'tooMany', max: FORWARD_TARGETS_MAX });
    const next = i < 0 ? [...targets, target] : targets.map((t, j) => (j === i ? target : t));
    this.#opts.write(next);
    this.#rebuild();
    return this.view();
  }

  /** Removes a target and its undelivered messages. */
  remove(id: string): ForwardView {
    this.#opts.write(this.#opts.read().filter((t) => t.id !== id));
    this.#rebuild();
    return this.view();
  }

  forward(alert: Alert): number {
    if (this.#forwarder) return this.#forwarder.forward(alert);
    if (!this.#stopped && this.#early.length < EARLY_MAX) this.#early.push(alert);
    return 0;
  }

  async test(id: string): Promise<ForwardTestResult> {
    const problem = Object.hasOwn(this.#problems, id) ? this.#problems[id] : undefined;
    const setting = this.#opts.read().find((t) => t.id === id);
    if (problem !== undefined && setting)
      return {
        ok: false,
        message: forwardWordsEnglish(problem),
        words: { code: 'cannot-run', why: problem },
      };
    if (!this.#forwarder || !setting)
      return {
        ok: false,
        message: forwardWordsEnglish({ code: 'noTarget', id }),
        words: { code: 'no-target', id },
      };
    return this.#forwarder.test(id);
  }

  view(): ForwardView {
    const base = this.#forwarder?.view() ?? { targets: [], status: [] };
    const editable = structuredClone([...this.#opts.read()]);
    const secrets = this.#secrets ?? {};
    return {
      ...base,
      editable,
      secretSet: editable.map((t) => t.id).filter((id) => Object.hasOwn(secrets, id)),
      problems: { ...this.#problems },
    };
  }

  addRecorder(recorder: DeliveryRecorder): () => void {
    this.#recorders.add(recorder);
    return () => this.#recorders.delete(recorder);
  }

  async settled(): Promise<void> {
    await this.#forwarder?.settled();
  }

  stop(): void {
    this.#stopped = true;
    this.#early = [];
    this.#forwarder?.stop();
    this.#forwarder = null;
  }

  #rebuild(): void {
    if (this.#secrets === null || this.#stopped) return;
    // The old queues are saved (stop persists) before the new forwarder reads them back.
    this.#forwarder?.stop();
    const { targets, problems } = resolveDesktopTargets(this.#opts.read(), this.#secrets);
    this.#problems = problems;
    this.#forwarder = new Forwarder(targets, {
      ...this.#opts.forwarder,
      store: this.#store,
      recorder: {
        record: (e) => {
          for (const r of this.#recorders) r.record(e);
        },
      },
    });
  }
}
