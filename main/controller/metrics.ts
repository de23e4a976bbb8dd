/**
 * The controller's Prometheus metrics (prom-client, a registry of its own so two controllers in one
 * test process never share series): the same facts the GpuInventory holds, write-back outcomes, watch
 * restarts and whether this replica leads. Names follow Prometheus conventions (`_total` counters).
 *
 * The text is rendered when a value changes (coalesced), never per request: the ops server answers a
 * scrape from `rendered()` synchronously, so a flood of scrapes costs no rendering and no queue.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import type { ConnectionPhase } from '../../common/connection.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import type { WriteEvent } from '../writeback/index.ts';

const NODE_STATES = ['ready', 'not_ready', 'unknown'] as const;

export class ControllerMetrics {
  readonly registry = new Registry();
  readonly #nodes = new Gauge({
    name: 'gpu_fleet_gpu_nodes',
    help: 'GPU nodes by the state of their Ready condition.',
    labelNames: ['state'],
    registers: [this.registry],
  });
  readonly #cordoned = new Gauge({
    name: 'gpu_fleet_gpu_nodes_cordoned',
    help: 'GPU nodes marked unschedulable.',
    registers: [this.registry],
  });
  readonly #gpus = new Gauge({
    name: 'gpu_fleet_gpus',
    help: 'GPUs on GPU nodes, from the nvidia.com/gpu.count labels.',
    registers: [this.registry],
  });
  readonly #capacity = new Gauge({
    name: 'gpu_fleet_gpus_capacity',
    help: 'Sum of the nodes\u2019 nvidia.com/gpu capacity.',
    registers: [this.registry],
  });
  readonly #allocatable = new Gauge({
    name: 'gpu_fleet_gpus_allocatable',
    help: 'Sum of the nodes\u2019 nvidia.com/gpu allocatable (what the device plugin still offers).',
    registers: [this.registry],
  });
  readonly #writes = new Counter({
    name: 'gpu_fleet_writes_total',
    help: 'Write-back outcomes by target (status, configmap) and outcome (written, skipped, failed).',
    labelNames: ['target', 'outcome'],
    registers: [this.registry],
  });
  readonly #restarts = new Counter({
    name: 'gpu_fleet_watch_restarts_total',
    help: 'Times the node watch stopped being live and had to be restarted.',
    registers: [this.registry],
  });
  readonly #leader = new Gauge({
    name: 'gpu_fleet_leader',
    help: '1 while this replica holds the leader lease and writes, else 0.',
    registers: [this.registry],
  });
  readonly #synced = new Gauge({
    name: 'gpu_fleet_synced',
    help: '1 once the node cache has been listed and is live, else 0.',
    registers: [this.registry],
  });
  #lastPhase: ConnectionPhase | null = null;
  #rendered = Buffer.alloc(0);
  #rendering: Promise<void> | null = null;
  #again = false;

  constructor() {
    for (const state of NODE_STATES) this.#nodes.set({ state }, 0);
    for (const target of ['status', 'configmap'])
      for (const outcome of ['written', 'skipped', 'failed']) this.#writes.inc({ target, outcome }, 0);
    this.#leader.set(0);
    this.#synced.set(0);
    this.#changed();
  }

  /** Renders again once the render in progress (if any) is done: the last change always shows. */
  #changed(): void {
    if (this.#rendering) {
      this.#again = true;
      return;
    }
    this.#rendering = this.registry
      .metrics()
      .then((text) => {
        this.#rendered = Buffer.from(text);
      })
      .finally(() => {
        this.#rendering = null;
        if (this.#again) {
          this.#again = false;
          this.#changed();
        }
      });
  }

  /** The text as last rendered. */
  rendered(): { contentType: string; body: Buffer } {
    return { contentType: this.registry.contentType, body: this.#rendered };
  }

  /** Resolves once every change so far is in `rendered()`. */
  async settled(): Promise<void> {
    while (this.#rendering) await this.#rendering;
  }

  inventory(inv: GpuInventoryStatus): void {
    const counts = { ready: 0, not_ready: 0, unknown: 0 };
    let cordoned = 0;
    let capacity = 0;
    let allocatable = 0;
    for (const n of inv.nodes) {
      const r = n.readiness ?? (n.ready ? 'True' : 'False');
      counts[r === 'True' ? 'ready' : r === 'False' ? 'not_ready' : 'unknown']++;
      if (n.cordoned === true) cordoned++;
      capacity += n.capacity_gpus ?? 0;
      allocatable += n.allocatable_gpus ?? 0;
    }
    // The node list may be compacted for size, the totals never are: ready/not-ready come from them.
    if (inv.nodes.length !== inv.total_gpu_nodes) {
      counts.ready = inv.ready_gpu_nodes;
      counts.not_ready = inv.total_gpu_nodes - inv.ready_gpu_nodes;
      counts.unknown = 0;
    }
    for (const state of NODE_STATES) this.#nodes.set({ state }, counts[state]);
    this.#cordoned.set(cordoned);
    this.#gpus.set(inv.total_gpus);
    this.#capacity.set(capacity);
    this.#allocatable.set(allocatable);
    this.#changed();
  }

  write(e: WriteEvent): void {
    this.#writes.inc({ target: e.target, outcome: e.action });
    this.#changed();
  }

  connection(phase: ConnectionPhase): void {
    if (this.#lastPhase === 'live' && phase !== 'live') {
      this.#restarts.inc();
      this.#changed();
    }
    this.#lastPhase = phase;
  }

  leader(leading: boolean): void {
    this.#leader.set(leading ? 1 : 0);
    this.#changed();
  }

  synced(synced: boolean): void {
    this.#synced.set(synced ? 1 : 0);
    this.#changed();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
