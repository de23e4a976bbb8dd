/**
 * DCGM telemetry for every monitored context: a ContextTelemetry each, the background scrapes on the
 * engine's clock (one step every 60 s / budget, only while the setting allows it for the context's GPU
 * node count), the on-demand reads of an open node detail, and the GPU alert policy fed by both.
 */
import type { AlertRules } from '../../common/alert-rules.ts';
import type { NodeTelemetry, TelemetrySettingsView, TelemetrySummary } from '../../common/telemetry.ts';
import {
  evaluateGpus,
  forgetGpuContext,
  type GpuHealthState,
  INITIAL_GPU_HEALTH,
} from '../alerts/gpu-health.ts';
import type { SnoozeState } from '../alerts/snooze.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import type { Clock } from '../kube/clock.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { contextFingerprint } from '../kube/fingerprint.ts';
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';
import { ContextTelemetry, type TelemetryReading } from '../telemetry/context-telemetry.ts';

export interface TelemetryHubOptions {
  clock: Clock;
  makeClient: (ctx: ResolvedContext) => ContextClient;
  settings: () => TelemetrySettingsView;
  rules: () => AlertRules;
  snooze: () => SnoozeState;
  /** The context's GPU node names now (from its inventory). */
  gpuNodes: (context: string) => readonly string[];
  alert: (a: PolicyAlert) => void;
  /** Every reading as it came (the timeline records them). */
  reading?: (r: TelemetryReading) => void;
  changed: () => void;
  /** A line for the host's debug log (what a scrape ignored), with its context. */
  debug?: (context: string, line: string) => void;
}

interface Entry {
  fingerprint: string;
  ctx: ResolvedContext;
  telemetry: ContextTelemetry;
  client: ContextClient | null;
  timer: unknown;
  stopped: boolean;
}

/** Whether background scrapes run for a context with this many GPU nodes. */
export function backgroundEnabled(s: TelemetrySettingsView, gpuNodes: number): boolean {
  if (s.background === 'off') return false;
  return s.background === 'on' || gpuNodes <= s.autoMaxGpuNodes;
}

export class TelemetryHub {
  readonly #o: TelemetryHubOptions;
  readonly #entries = new Map<string, Entry>();
  #health: GpuHealthState = INITIAL_GPU_HEALTH;
  /** Background steps finished (skipped or not), for the bench and tests that drive the clock. */
  stepsDone = 0;

  constructor(options: TelemetryHubOptions) {
    this.#o = options;
  }

  set(contexts: readonly ResolvedContext[]): void {
    const wanted = new Map(contexts.map((c) => [c.name, c]));
    for (const [name, e] of this.#entries) {
      const next = wanted.get(name);
      if (!next || contextFingerprint(next) !== e.fingerprint) {
        this.#stopEntry(e);
        this.#entries.delete(name);
        this.#health = forgetGpuContext(this.#health, name);
      }
    }
    for (const ctx of contexts) {
      if (this.#entries.has(ctx.name)) continue;
      const e: Entry = {
        fingerprint: contextFingerprint(ctx),
        ctx,
        telemetry: new ContextTelemetry(
          ctx.name,
          this.#o.clock,
          (r) => this.#onReading(r),
          (line) => this.#o.debug?.(ctx.name, line),
        ),
        client: null,
        timer: null,
        stopped: false,
      };
      this.#entries.set(ctx.name, e);
      this.#schedule(e);
    }
  }

  get(context: string): ContextTelemetry | undefined {
    return this.#entries.get(context)?.telemetry;
  }

  /** A reading for an open node detail, with the detail's own client. */
  onDemand(context: string, node: string, client: ContextClient): Promise<NodeTelemetry> | null {
    return this.#entries.get(context)?.telemetry.onDemand(node, client) ?? null;
  }

  /** `unlabeled`: the context's GPU nodes without a product label (their telemetry model is named). */
  summary(context: string, unlabeled: Iterable<string> = []): TelemetrySummary | null {
    const t = this.#entries.get(context)?.telemetry;
    if (!t) return null;
    const s = t.summary(unlabeled);
    return s.hottest === null && s.xids.length === 0 && s.models === undefined ? null : s;
  }

  stop(): void {
    for (const e of this.#entries.values()) this.#stopEntry(e);
    this.#entries.clear();
  }

  #stopEntry(e: Entry): void {
    e.stopped = true;
    if (e.timer !== null) this.#o.clock.clearTimeout(e.timer);
    e.timer = null;
    e.client?.close();
    e.client = null;
  }

  #schedule(e: Entry): void {
    if (e.stopped) return;
    const every = Math.ceil(60_000 / Math.max(1, this.#o.settings().budgetPerMinute));
    e.timer = this.#o.clock.setTimeout(() => {
      e.timer = null;
      // #step records every failure in the node's telemetry; the rejection arm only keeps the chain going.
      const next = () => {
        this.stepsDone++;
        this.#schedule(e);
      };
      this.#step(e).then(next, next);
    }, every);
  }

  async #step(e: Entry): Promise<void> {
    const settings = this.#o.settings();
    // Off (always so in the controller): no walk over the inventory's nodes at every step.
    if (settings.background === 'off') return;
    const nodes = this.#o.gpuNodes(e.ctx.name);
    if (!backgroundEnabled(settings, nodes.length)) return;
    e.client ??= this.#o.makeClient(e.ctx);
    await e.telemetry.backgroundStep(nodes, e.client);
  }

  #onReading(r: TelemetryReading): void {
    const out = evaluateGpus(this.#health, r, this.#o.rules(), this.#o.snooze());
    this.#health = out.state;
    for (const a of out.alerts) this.#o.alert(a);
    this.#o.reading?.(r);
    this.#o.changed();
  }
}
