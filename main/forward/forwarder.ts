/**
 * One decision, several deliveries: the forwarder takes exactly the alerts that become desktop
 * notifications (after the hold-down, flap damping and pause of main/alerts) and puts one message per
 * alert into the queue of every target that wants it (its clusters, its minimum severity), worded in
 * that target's language. It owns the queues, their persistence and the secrets they send with; none
 * of the secrets leaves it (statuses and sentences name a target by id and host only).
 */
import type { Alert } from '../../common/alerts.ts';
import { focusLink } from '../../common/focus-link.ts';
import {
  atLeast,
  type ForwardResultWords,
  type ForwardSecret,
  type ForwardStatus,
  type ForwardTarget,
  type ForwardTestResult,
  type ForwardView,
  severityOf,
} from '../../common/forwarding.ts';
import { type Clock, systemClock } from '../kube/clock.ts';
import type { Endpoint } from './endpoint.ts';
import { type ForwardMessage, forwardMessage, testMessage } from './message.ts';
import { judge } from './outcome.ts';
import type { PendingStore } from './pending-store.ts';
import { DeliveryQueue, type QueueItem, type QueueTarget } from './queue.ts';
import { type DeliveryRecorder, MemoryDeliveryRecorder } from './recorder.ts';
import { discordRequest, slackRequest } from './render-chat.ts';
import { eventTag, ntfyCheckRequest, ntfyRequest } from './render-ntfy.ts';
import { webhookRequest } from './render-webhook.ts';
import { SEND_DEFAULTS, type Sender, sendRequest } from './send.ts';

/** A target ready to send: its settings, its checked endpoint and its secret. */
export interface ResolvedTarget {
  config: ForwardTarget;
  endpoint: Endpoint;
  secret: ForwardSecret;
}

export interface ForwarderOptions {
  clock?: Clock;
  send?: Sender;
  recorder?: DeliveryRecorder;
  store?: PendingStore;
  /** Messages kept per target while it is down (default 100); older ones are dropped and counted. */
  queueMax?: number;
  /** A message not delivered within this long is dropped (default 24 h: news that late misleads). */
  maxAgeMs?: number;
  random?: () => number;
  timeoutMs?: number;
  /**
   * The address that opens the window (browser mode's, without its session token), read at each send:
   * ntfy messages then carry a click URL to the alert's first node. None: no click URL.
   */
  clickBase?: () => string | null;
}

export const QUEUE_MAX = 100;
export const MAX_AGE_MS = 24 * 3_600_000;

/** Does this target want this alert? */
export function wants(target: ForwardTarget, alert: Pick<Alert, 'context' | 'kind'>): boolean {
  if (!target.enabled) return false;
  if (target.clusters !== 'all' && !target.clusters.includes(alert.context)) return false;
  return atLeast(severityOf(alert.kind), target.minSeverity);
}

/** The ntfy click URL of a message: its first node (or its cluster) in the window, when one is served. */
function clickOf(base: string | null, m: ForwardMessage): string | null {
  if (base === null) return null;
  if (m.context === '') return base;
  return focusLink(base, { context: m.context, node: m.nodes[0]?.name ?? null });
}

/** A URL part this long may be a secret (a Slack or Discord webhook's ids and token, an ntfy topic). */
const SECRET_PART_MIN = 8;

/**
 * The values a server's words must not repeat: the token, password and signing key, the user:password
 * pair as Basic sends it, and the URL's path and query (whole and by part) beyond its host.
 */
export function secretValues(t: ResolvedTarget): string[] {
  const { secret, endpoint } = t;
  const out = [secret.token, secret.password, secret.signingKey].filter(
    (v): v is string => v !== undefined && v !== '',
  );
  if (secret.user !== undefined && secret.password !== undefined)
    out.push(Buffer.from(`${secret.user}:${secret.password}`).toString('base64'));
  const tail = `${endpoint.url.pathname}${endpoint.url.search}`;
  for (const part of [tail, ...tail.split(/[/?&=]/)]) if (part.length >= SECRET_PART_MIN) out.push(part);
  return out;
}

function queueTarget(t: ResolvedTarget, clickBase: () => string | null = () => null): QueueTarget {
  const { config, endpoint, secret } = t;
  const base = { id: config.id, kind: config.kind, host: endpoint.host, secrets: secretValues(t) };
  switch (config.kind) {
    case 'ntfy': {
      const ntfy = endpoint.ntfy ?? { base: endpoint.host, topic: '' };
      return {
        ...base,
        request: (m) => ntfyRequest(m, ntfy, secret, clickOf(clickBase(), m)),
        // A minute of slack before the first try covers a server clock a little behind ours.
        check: (item) => ({
          request: ntfyCheckRequest(
            item.message.eventId,
            ntfy,
            secret,
            Math.max(0, Math.floor((item.firstTriedAt ?? 0) / 1000) - 60),
          ),
          found: eventTag(item.message.eventId),
        }),
      };
    }
    case 'webhook':
      return { ...base, request: (m) => webhookRequest(m, secret.url, secret.signingKey) };
    case 'slack':
      return { ...base, request: (m) => slackRequest(m, secret.url) };
    case 'discord':
      return { ...base, request: (m) => discordRequest(m, secret.url) };
  }
}

export class Forwarder {
  readonly #targets: ResolvedTarget[];
  readonly #queues = new Map<string, DeliveryQueue>();
  readonly #clock: Clock;
  readonly #send: Sender;
  readonly #store: PendingStore | null;
  readonly #timeoutMs: number;
  readonly #clickBase: () => string | null;
  readonly #recorders = new Set<DeliveryRecorder>();
  /** Why the undelivered messages of the last run could not be read, if they could not. */
  readonly notice: string | null;
  /** Why undelivered messages cannot be saved for the next run (disk full, read-only), until they can. */
  #storeProblem: string | null = null;

  constructor(targets: readonly ResolvedTarget[], opts: ForwarderOptions = {}) {
    this.#targets = [...targets];
    this.#clock = opts.clock ?? systemClock;
    this.#send = opts.send ?? sendRequest;
    this.#store = opts.store ?? null;
    this.#timeoutMs = opts.timeoutMs ?? SEND_DEFAULTS.timeoutMs;
    this.#clickBase = opts.clickBase ?? (() => null);
    this.#recorders.add(opts.recorder ?? new MemoryDeliveryRecorder());
    const recorder: DeliveryRecorder = {
      record: (e) => {
        for (const r of this.#recorders) r.record(e);
      },
    };
    const loaded = this.#store?.load() ?? { queues: {}, notice: null };
    this.notice = loaded.notice;
    for (const t of this.#targets) {
      const restored: QueueItem[] = Object.hasOwn(loaded.queues, t.config.id)
        ? (loaded.queues[t.config.id] ?? [])
        : [];
      const queue = new DeliveryQueue(
        queueTarget(t, this.#clickBase),
        {
          clock: this.#clock,
          send: this.#send,
          recorder,
          changed: () => this.#persist(),
          max: opts.queueMax ?? QUEUE_MAX,
          maxAgeMs: opts.maxAgeMs ?? MAX_AGE_MS,
          timeoutMs: this.#timeoutMs,
          ...(opts.random ? { random: opts.random } : {}),
        },
        restored,
      );
      this.#queues.set(t.config.id, queue);
    }
  }

  /** Queues the alert for every target that wants it; returns how many. Call only for notified alerts. */
  forward(alert: Alert): number {
    let n = 0;
    for (const t of this.#targets) {
      if (!wants(t.config, alert)) continue;
      this.#queues.get(t.config.id)?.enqueue(forwardMessage(alert, t.config.language));
      n++;
    }
    return n;
  }

  /** Sends a test message to one target now, outside its queue; one sentence says how it went. */
  async test(id: string): Promise<ForwardTestResult> {
    const t = this.#targets.find((x) => x.config.id === id);
    if (!t)
      return {
        ok: false,
        message: `There is no forwarding target "${id}".`,
        words: { code: 'no-target', id },
      };
    const target = queueTarget(t, this.#clickBase);
    const message = testMessage(id, this.#clock.now(), t.config.language);
    const result = await this.#send(target.request(message), {
      clock: this.#clock,
      timeoutMs: this.#timeoutMs,
      maxBytes: SEND_DEFAULTS.maxBytes,
    });
    const { kind } = t.config;
    const host = t.endpoint.host;
    const outcome = judge(kind, host, result, this.#clock.now(), target.secrets);
    if (outcome.type === 'delivered')
      return {
        ok: true,
        message: `${kind} ${host}: test message delivered.`,
        words: { code: 'delivered', kind, host },
      };
    const words: ForwardResultWords =
      outcome.type === 'terminal'
        ? { code: 'refused', kind, host, status: outcome.status, said: outcome.said }
        : { code: 'retry', kind, host, status: outcome.status, said: outcome.said };
    return { ok: false, message: outcome.why, words };
  }

  status(): ForwardStatus[] {
    return [...this.#queues.values()].map((q) => q.status());
  }

  /** The targets as the window may see them (settings and host, never the secret) and their status. */
  view(): ForwardView {
    return { targets: this.#targets.map((t) => ({ ...t.config })), status: this.status() };
  }

  /** Adds a recorder of every delivery event (e.g. the timeline database's); returns its removal. */
  addRecorder(recorder: DeliveryRecorder): () => void {
    this.#recorders.add(recorder);
    return () => this.#recorders.delete(recorder);
  }

  /** Resolves when no queue has a request in flight (retries may still wait on the clock). */
  async settled(): Promise<void> {
    await Promise.all([...this.#queues.values()].map((q) => q.settled()));
  }

  stop(): void {
    for (const q of this.#queues.values()) q.stop();
    this.#persist();
  }

  #persist(): void {
    if (!this.#store) return;
    const all: Record<string, readonly QueueItem[]> = {};
    for (const [id, q] of this.#queues) all[id] = q.items;
    try {
      this.#store.save(all);
      this.#storeProblem = null;
    } catch (error) {
      // A full or read-only disk must not stop delivery: the messages are still in memory.
      const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
      this.#storeProblem = `Undelivered alerts cannot be saved for the next start (${code}).`;
    }
  }

  get storeProblem(): string | null {
    return this.#storeProblem;
  }
}
