/**
 * One context's GPU telemetry: which exporter pod serves which node (discovered, kept DISCOVERY_TTL_MS),
 * the last reading of each node with a short history for sparklines, and the rules that keep it cheap:
 * - on demand (an open node detail, every 10 s): at most one scrape per node per ON_DEMAND_MIN_MS;
 * - in the background (`backgroundStep`, called by a timer): one node per step, round-robin over the GPU
 *   nodes, none scraped again within BACKGROUND_MIN_MS, at most `budgetPerMinute` steps a minute;
 * - per pod, a failure backs off (doubling from 60 s to 30 min); a "forbidden" stops all scrapes of the
 *   context for FORBIDDEN_PAUSE_MS, so a user without pods/proxy costs one request, not one per node.
 * - an answer with no DCGM_FI_* sample is a failure like any other (NO_DCGM_METRICS), not a reading of
 *   zero GPUs, so it cannot start the gpu-gone hold-down.
 * Failures are one sentence in the node's `NodeTelemetry`, never thrown to the caller.
 */

import { type BackoffSchedule, backoffStep } from '../../common/backoff.ts';
import {
  type GpuSample,
  type GpuTelemetry,
  type NodeTelemetry,
  SUMMARY_MODELS_MAX,
  type TelemetrySummary,
} from '../../common/telemetry.ts';
import type { Clock } from '../kube/clock.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { type GpuReading, isDcgmExporterText, readGpus } from './dcgm-read.ts';
import { exportersByNode } from './discovery.ts';
import { PromParseError, parsePromText } from './prom-text.ts';
import {
  type ExporterRef,
  FORBIDDEN_PODS,
  FORBIDDEN_PROXY,
  listExporterPods,
  NO_DCGM_METRICS,
  NO_EXPORTER,
  OPERATOR_NAMESPACE,
  POD_GONE,
  scrapeExporter,
  TelemetryError,
} from './requests.ts';
import { xidMeaning } from './xid.ts';

export const DISCOVERY_TTL_MS = 5 * 60_000;
export const ON_DEMAND_MIN_MS = 5_000;
export const BACKGROUND_MIN_MS = 60_000;
export const FORBIDDEN_PAUSE_MS = 30 * 60_000;
/** A pod whose scrape failed is retried after 1 min, doubling to 30 min. */
const SCRAPE_RETRY: BackoffSchedule = { initialMs: 60_000, maxMs: 30 * 60_000, factor: 2 };
/** Sparkline points per GPU: 30 at the 10 s detail refresh is the last five minutes. */
export const HISTORY_POINTS = 30;
/** Nodes remembered at once (a 5,000-node cluster scraped in the background stays bounded). */
const MAX_NODES = 10_000;

/** A reading as the alert policy takes it: null GPUs when the scrape failed. */
export interface TelemetryReading {
  context: string;
  node: string;
  at: number;
  gpus: GpuReading[] | null;
}

interface NodeState {
  lastAttempt: number;
  view: NodeTelemetry;
  history: Map<number, GpuSample[]>;
  failures: number;
  retryAt: number;
}

export class ContextTelemetry {
  readonly #context: string;
  readonly #clock: Clock;
  readonly #onReading: (r: TelemetryReading) => void;
  #discovery: { at: number; byNode: Map<string, ExporterRef> | null; failure: string | null } | null = null;
  #discovering: Promise<void> | null = null;
  readonly #nodes = new Map<string, NodeState>();
  readonly #inflight = new Map<string, Promise<NodeTelemetry>>();
  #forbiddenUntil = 0;
  #cursor = 0;

  /** Hears what a scrape ignored (an XID that is no XID), for the host's debug log. */
  readonly #debug: (line: string) => void;

  constructor(
    context: string,
    clock: Clock,
    onReading: (r: TelemetryReading) => void,
    debug: (line: string) => void = () => undefined,
  ) {
    this.#context = context;
    this.#clock = clock;
    this.#onReading = onReading;
    this.#debug = debug;
  }

  /** The last reading of a node, without a request (null: never tried). */
  view(node: string): NodeTelemetry | null {
    return this.#nodes.get(node)?.view ?? null;
  }

  /** A fresh reading for an open node detail (or the one from the last ON_DEMAND_MIN_MS). */
  onDemand(node: string, client: ContextClient): Promise<NodeTelemetry> {
    const st = this.#nodes.get(node);
    const now = this.#clock.now();
    if (st && now - st.lastAttempt < ON_DEMAND_MIN_MS) return Promise.resolve(st.view);
    return this.#scrape(node, client);
  }

  /**
   * One background step: scrapes the next GPU node (round-robin) that is due, or none. Returns the node
   * scraped, or null. The caller's timer spaces steps by 60 s / budget.
   */
  async backgroundStep(gpuNodes: readonly string[], client: ContextClient): Promise<string | null> {
    const now = this.#clock.now();
    if (now < this.#forbiddenUntil || gpuNodes.length === 0) return null;
    for (let tried = 0; tried < gpuNodes.length; tried++) {
      const node = gpuNodes[this.#cursor % gpuNodes.length] as string;
      this.#cursor = (this.#cursor + 1) % gpuNodes.length;
      const st = this.#nodes.get(node);
      if (st && (now - st.lastAttempt < BACKGROUND_MIN_MS || now < st.retryAt)) continue;
      if (this.#discovery?.byNode && !this.#discovery.byNode.has(node) && this.#fresh(now)) {
        // Known to have no exporter: no request, but the node detail still says so.
        this.#record(node, now, null, NO_EXPORTER, false);
        continue;
      }
      await this.#scrape(node, client);
      return node;
    }
    return null;
  }

  /**
   * The card's summary. `unlabeled`: the GPU nodes whose product label is gone; the model their last
   * reading names goes into `models` (the first GPU that names one), at most SUMMARY_MODELS_MAX.
   */
  summary(unlabeled: Iterable<string> = []): TelemetrySummary {
    let hottest: TelemetrySummary['hottest'] = null;
    const xids: TelemetrySummary['xids'] = [];
    for (const [node, st] of this.#nodes) {
      if (st.view.state !== 'ok') continue;
      for (const g of st.view.gpus) {
        if (g.temperatureC !== null && (hottest === null || g.temperatureC > hottest.temperatureC))
          hottest = { node, index: g.index, temperatureC: g.temperatureC };
        if (g.xid !== null) xids.push({ node, index: g.index, xid: g.xid });
      }
    }
    const models: NonNullable<TelemetrySummary['models']> = [];
    for (const node of unlabeled) {
      if (models.length >= SUMMARY_MODELS_MAX) break;
      const view = this.#nodes.get(node)?.view;
      const model = view?.state === 'ok' ? view.gpus.find((g) => g.model !== null)?.model : null;
      if (model) models.push({ node, model });
    }
    return { hottest, xids: xids.slice(0, 20), ...(models.length > 0 ? { models } : {}) };
  }

  #fresh(now: number): boolean {
    return this.#discovery !== null && now - this.#discovery.at < DISCOVERY_TTL_MS;
  }

  async #discover(client: ContextClient): Promise<void> {
    const now = this.#clock.now();
    if (this.#fresh(now)) return;
    this.#discovering ??= (async () => {
      try {
        let list = await listExporterPods(client, OPERATOR_NAMESPACE);
        let byNode = exportersByNode(list);
        if (byNode.size === 0) {
          list = await listExporterPods(client, null);
          byNode = exportersByNode(list);
        }
        this.#discovery = { at: this.#clock.now(), byNode, failure: null };
      } catch (err) {
        const message = err instanceof TelemetryError ? err.message : 'the exporter pods could not be listed';
        this.#discovery = { at: this.#clock.now(), byNode: null, failure: message };
        if (message === FORBIDDEN_PODS) this.#forbiddenUntil = this.#clock.now() + FORBIDDEN_PAUSE_MS;
      } finally {
        this.#discovering = null;
      }
    })();
    await this.#discovering;
  }

  #scrape(node: string, client: ContextClient): Promise<NodeTelemetry> {
    const running = this.#inflight.get(node);
    if (running) return running;
    const p = this.#scrapeOnce(node, client).finally(() => this.#inflight.delete(node));
    this.#inflight.set(node, p);
    return p;
  }

  async #scrapeOnce(node: string, client: ContextClient): Promise<NodeTelemetry> {
    const started = this.#clock.now();
    if (started < this.#forbiddenUntil) {
      const st = this.#nodes.get(node);
      if (st) return st.view;
      return this.#record(node, started, null, this.#discovery?.failure ?? FORBIDDEN_PROXY, false);
    }
    await this.#discover(client);
    const d = this.#discovery;
    const ref = d?.byNode?.get(node);
    if (!ref) return this.#record(node, this.#clock.now(), null, d?.failure ?? NO_EXPORTER, false);
    try {
      const text = await scrapeExporter(client, ref);
      const samples = parsePromText(text);
      if (!isDcgmExporterText(text, samples)) throw new TelemetryError(NO_DCGM_METRICS, true);
      const gpus = readGpus(samples, (line) => this.#debug(`${node}: ${line}`));
      return this.#record(node, this.#clock.now(), gpus, null, false);
    } catch (err) {
      const e =
        err instanceof TelemetryError
          ? err
          : err instanceof PromParseError
            ? new TelemetryError(`the exporter's answer is not Prometheus text (${err.message})`, true)
            : new TelemetryError('the exporter could not be read', true);
      if (e.message === FORBIDDEN_PROXY) this.#forbiddenUntil = this.#clock.now() + FORBIDDEN_PAUSE_MS;
      // A pod that is gone: look again on the next scrape (the DaemonSet has made a new one).
      if (e.message === POD_GONE) this.#discovery = null;
      return this.#record(node, this.#clock.now(), null, e.message, e.transient);
    }
  }

  #record(
    node: string,
    at: number,
    gpus: GpuReading[] | null,
    failure: string | null,
    transient: boolean,
  ): NodeTelemetry {
    let st = this.#nodes.get(node);
    if (!st) {
      if (this.#nodes.size >= MAX_NODES) {
        const oldest = this.#nodes.keys().next().value;
        if (oldest !== undefined) this.#nodes.delete(oldest);
      }
      st = {
        lastAttempt: at,
        view: { state: 'unavailable', message: '', scrapedAt: null },
        history: new Map(),
        failures: 0,
        retryAt: 0,
      };
      this.#nodes.set(node, st);
    }
    st.lastAttempt = at;
    const scrapedAt = new Date(at).toISOString();
    if (gpus === null) {
      st.failures++;
      const wait = backoffStep(SCRAPE_RETRY, st.failures - 1);
      st.retryAt = at + (transient ? wait : Math.max(wait, 10 * 60_000));
      st.view = { state: 'unavailable', message: failure ?? NO_EXPORTER, scrapedAt };
    } else {
      st.failures = 0;
      st.retryAt = 0;
      st.view = { state: 'ok', scrapedAt, gpus: gpus.map((g) => this.#gpuView(st as NodeState, g, at)) };
    }
    this.#onReading({ context: this.#context, node, at, gpus });
    return st.view;
  }

  #gpuView(st: NodeState, g: GpuReading, at: number): GpuTelemetry {
    const h = st.history.get(g.index) ?? [];
    h.push({ at, util: g.util, temp: g.temp });
    if (h.length > HISTORY_POINTS) h.splice(0, h.length - HISTORY_POINTS);
    st.history.set(g.index, h);
    const xid = g.xid !== null && g.xid !== 0 ? g.xid : null;
    return {
      index: g.index,
      uuid: g.uuid,
      model: g.model,
      utilPercent: g.util,
      temperatureC: g.temp,
      powerW: g.power,
      memoryUsedMiB: g.fbUsed,
      memoryTotalMiB: g.fbUsed !== null && g.fbFree !== null ? g.fbUsed + g.fbFree : null,
      xid,
      xidMeaning: xid === null ? null : xidMeaning(xid),
      history: [...h],
    };
  }
}
