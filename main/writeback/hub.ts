/**
 * Wires write-back to an engine: one ContextWriteback per context that has write-back on, fed by the
 * engine's inventory events, its state pushed into the engine (`setWriteback`) so the window and
 * `watch` show it. The hub owns the ContextClients it makes (separate from the engine's, so a write
 * never queues behind a watch) and closes them when a context stops.
 *
 * Call `set()` after every `engine.setContexts()` and after a write-back setting changes: contexts whose
 * settings changed restart, the rest are left alone.
 */
import type { WritebackState } from '../../common/fleet.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { type Clock, systemClock } from '../kube/clock.ts';
import { ContextClient } from '../kube/context-client.ts';
import { contextFingerprint } from '../kube/fingerprint.ts';
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';
import type { FitLimits } from './fit.ts';
import { ContextWriteback, type WriteEvent } from './index.ts';

/** The one host event the hub acts on: a context's new inventory. */
export interface HostInventoryEvent {
  type: 'inventory';
  context: string;
  inventory: GpuInventoryStatus;
  stale: boolean;
  /** `controller`: read from the in-cluster controller, which writes it itself; never written back. */
  source?: 'controller' | 'nodes';
}

/**
 * The slice of an engine the hub needs, declared here so write-back imports nothing of fleet/ (the
 * engine satisfies it structurally). Events other than `inventory` are passed by and ignored.
 */
export interface WritebackHost {
  on(listener: (e: HostInventoryEvent | { readonly type: string }) => void): () => void;
  setWriteback(context: string, state: WritebackState): void;
  snapshot(): {
    contexts: {
      context: string;
      inventory: GpuInventoryStatus | null;
      stale: boolean;
      source?: { active: 'controller' | 'nodes' | null };
    }[];
  };
}

function isInventoryEvent(e: HostInventoryEvent | { readonly type: string }): e is HostInventoryEvent {
  return e.type === 'inventory';
}

export interface WritebackSettings {
  group: string;
  configMapNamespace: string;
  minIntervalMs?: number | undefined;
  /** Size budgets of the written objects (fit.ts); the in-cluster controller passes CONTROLLER_FIT_LIMITS. */
  fitLimits?: FitLimits | undefined;
  /** Explicit opt-in to take over a ConfigMap / status another tool manages (`watch --take-over`). */
  takeOver?: boolean | undefined;
  /** The in-cluster controller's Lease (`namespace/name`), marked as the status's writer. */
  writer?: string | undefined;
}

export interface WritebackHubOptions {
  clock?: Clock;
  makeClient?: (ctx: ResolvedContext) => ContextClient;
}

export const WRITEBACK_OFF: WritebackState = {
  phase: 'off',
  message: null,
  lastWriteAt: null,
  writes: 0,
  skipped: 0,
};

interface Running {
  writer: ContextWriteback;
  client: ContextClient;
  key: string;
}

export class WritebackHub {
  readonly #running = new Map<string, Running>();
  readonly #unsubscribe: () => void;

  constructor(
    private readonly host: WritebackHost,
    private readonly opts: WritebackHubOptions = {},
    private readonly onEvent: (e: WriteEvent) => void = () => undefined,
  ) {
    this.#unsubscribe = host.on((e) => {
      if (isInventoryEvent(e) && e.source !== 'controller')
        this.#running.get(e.context)?.writer.update(e.inventory, e.stale);
    });
  }

  /** Write-back for exactly the contexts whose `settings(ctx)` is not null. */
  set(
    contexts: readonly ResolvedContext[],
    settings: (ctx: ResolvedContext) => WritebackSettings | null,
  ): void {
    const wanted = new Map<string, { ctx: ResolvedContext; s: WritebackSettings; key: string }>();
    for (const ctx of contexts) {
      const s = settings(ctx);
      if (s) wanted.set(ctx.name, { ctx, s, key: JSON.stringify([contextFingerprint(ctx), s]) });
    }
    for (const [name, r] of this.#running) {
      if (wanted.get(name)?.key === r.key) continue;
      this.#stopOne(name, r);
    }
    const known = new Map(this.host.snapshot().contexts.map((c) => [c.context, c]));
    for (const ctx of contexts) {
      const w = wanted.get(ctx.name);
      if (!w) {
        this.host.setWriteback(ctx.name, WRITEBACK_OFF);
        continue;
      }
      let r = this.#running.get(ctx.name);
      if (!r) {
        const started = this.#start(w.ctx, w.s, w.key);
        if (typeof started === 'string') {
          this.host.setWriteback(ctx.name, { ...WRITEBACK_OFF, phase: 'error', message: started });
          continue;
        }
        r = started;
        const last = known.get(ctx.name);
        if (last?.inventory && last.source?.active !== 'controller')
          r.writer.update(last.inventory, last.stale);
      }
      this.host.setWriteback(ctx.name, r.writer.state());
    }
  }

  /** The ContextWriteback of a context, e.g. to call install() from a button. */
  get(context: string): ContextWriteback | null {
    return this.#running.get(context)?.writer ?? null;
  }

  stop(): void {
    this.#unsubscribe();
    for (const [name, r] of this.#running) this.#stopOne(name, r);
  }

  /** The running writer, or why the context cannot be used (its client refused the settings). */
  #start(ctx: ResolvedContext, s: WritebackSettings, key: string): Running | string {
    let client: ContextClient;
    try {
      client = (this.opts.makeClient ?? ((c) => new ContextClient(c)))(ctx);
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
    const writer = new ContextWriteback(
      {
        context: ctx.name,
        client,
        group: s.group,
        configMapNamespace: s.configMapNamespace,
        clock: this.opts.clock ?? systemClock,
        ...(s.minIntervalMs !== undefined ? { minIntervalMs: s.minIntervalMs } : {}),
        ...(s.takeOver === true ? { takeOver: true } : {}),
        ...(s.writer !== undefined ? { writer: s.writer } : {}),
        ...(s.fitLimits !== undefined ? { fitLimits: s.fitLimits } : {}),
        onState: (state) => this.host.setWriteback(ctx.name, state),
      },
      this.onEvent,
    );
    const r = { writer, client, key };
    this.#running.set(ctx.name, r);
    return r;
  }

  #stopOne(name: string, r: Running): void {
    r.writer.stop();
    r.client.close();
    this.#running.delete(name);
    this.host.setWriteback(name, WRITEBACK_OFF);
  }
}
