/**
 * The engine as the controller's write-back sees it: the same events and snapshot, with each context's
 * inventory carrying its free GPUs per product (`free_gpus`, inventory/free-summary.ts), so the written
 * GpuInventory tells trays where a job can run without their watching pods. A change of the free GPUs
 * alone (a pod bound or finished) is news to the writer too: it comes as an inventory event with the last
 * inventory and the new summary. The writer's own comparison with what is stored skips what did not change.
 */
import type { ContextSnapshot, FleetSnapshot } from '../../common/fleet.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import type { EngineEvent, FleetEngine } from '../fleet/engine.ts';
import { freeSummary } from '../inventory/free-summary.ts';
import { jsonEqual } from '../inventory/json-equal.ts';

type Listener = (e: EngineEvent) => void;

export class FreeGpusHost {
  readonly #last = new Map<string, string>();

  constructor(private readonly engine: FleetEngine) {}

  on(listener: Listener): () => void {
    return this.engine.on((e) => {
      if (e.type === 'inventory') {
        const ctx = this.engine.snapshot().contexts.find((c) => c.context === e.context);
        const inventory = withFree(e.inventory, ctx);
        this.#last.set(e.context, JSON.stringify(inventory.free_gpus ?? null));
        listener({ ...e, inventory });
      } else if (e.type === 'snapshot') {
        listener(e);
        for (const ctx of e.snapshot.contexts) this.#freeChanged(ctx, listener);
      } else listener(e);
    });
  }

  setWriteback: FleetEngine['setWriteback'] = (context, state) => this.engine.setWriteback(context, state);

  snapshot(): FleetSnapshot {
    const s = this.engine.snapshot();
    return {
      ...s,
      contexts: s.contexts.map((c) => (c.inventory ? { ...c, inventory: withFree(c.inventory, c) } : c)),
    };
  }

  #freeChanged(ctx: ContextSnapshot, listener: Listener): void {
    if (!ctx.inventory || ctx.source?.active === 'controller') return;
    const inventory = withFree(ctx.inventory, ctx);
    const key = JSON.stringify(inventory.free_gpus ?? null);
    if (this.#last.get(ctx.context) === key) return;
    this.#last.set(ctx.context, key);
    listener({ type: 'inventory', context: ctx.context, inventory, stale: ctx.stale, source: 'nodes' });
  }
}

function withFree(inventory: GpuInventoryStatus, ctx: ContextSnapshot | undefined): GpuInventoryStatus {
  const free = ctx?.free;
  if (free === undefined || free.reason === 'off') return inventory;
  const summary = freeSummary(free);
  if (jsonEqual(inventory.free_gpus, summary)) return inventory;
  return { ...inventory, free_gpus: summary };
}
