/**
 * The timeline's one writer, owned by the engine host: the engine's events are queued as they come
 * (plain objects, no I/O) and written later by a timer, in short tasks: each one transaction of at most
 * SLICE rows, so a 5,000-node relist is written across several turns and never
 * holds the event loop for long. An inventory is diffed only when the writer reaches it. Failures are
 * states, never thrown:
 * - disk full, read-only folder, an I/O error → `not-recording` with the reason; the queue is kept
 *   (up to QUEUE_MAX inputs, oldest dropped past it) and writing is tried again by itself, backing off
 *   from 10 s to 5 min; once it works the gap is recorded as a span;
 * - a damaged file → moved aside with a notice, a fresh one started (open.ts);
 * - another process writing → `read-only`: this one shows the timeline but does not write it.
 * Node states, open spans and the last heartbeat live in the database, so a restarted host goes on
 * where the last one stopped: an episode open before the restart is closed by the change after it.
 */
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { type BackoffSchedule, backoffStep } from '../../common/backoff.ts';
import type { ConnectionState } from '../../common/connection.ts';
import type { GpuInventoryStatus, GpuNodeEntry } from '../../common/inventory.ts';
import type {
  TimelineAlert,
  TimelineDelivery,
  TimelineEvent,
  TimelineQuery,
  TimelineSettingsView,
  TimelineStatus,
  TimelineView,
} from '../../common/timeline.ts';
import type { Clock } from '../kube/clock.ts';
import type { TelemetryReading } from '../telemetry/context-telemetry.ts';
import { CHECKPOINT_MS, Checkpointer, type CheckpointResult } from './checkpointer.ts';
import { diffInventory, type NodeState } from './derive.ts';
import { classifyFault, type TimelineFault } from './faults.ts';
import {
  type OpenOptions,
  openReader,
  openWriter,
  TIMELINE_FILE,
  type WriterHandle,
  type WriterOpen,
} from './open.ts';
import { readTimeline } from './read.ts';
import { ALL_CONTEXTS, type TimelineRecord } from './records.ts';
import { DAY_MS, prune, vacuumIfWorth } from './retention.ts';
import { TimelineWrites } from './writes.ts';

export const FLUSH_MS = 1_000;
/** Rows per transaction when everything queued is written at once (a read, the host leaving). */
export const BATCH = 2_000;
/**
 * Rows per timer task: a few milliseconds of SQLite work (bench row 11a), the rest left to the next
 * turn. Counted in rows, not timed, so a test sees the same batches on any machine.
 */
export const SLICE = 100;
export const QUEUE_MAX = 50_000;
export const HEARTBEAT_MS = 60_000;
export const PRUNE_MS = 10 * 60_000;
export const IDLE_MS = 5 * 60_000;
/** A database that cannot be written is tried again after 10 s, doubling to 5 min (common/backoff.ts). */
const RETRY: BackoffSchedule = { initialMs: 10_000, maxMs: 5 * 60_000, factor: 2 };
/** A heartbeat older than this at start means the app was not running in between. */
const GAP_MS = 3 * HEARTBEAT_MS;
const HOUR_MS = 3_600_000;
export const NOT_RUNNING = 'GPU Fleet was not running';
/** Products whose free GPUs are recorded per context (a cluster rarely has more than a handful). */
export const MAX_FREE_PRODUCTS = 32;

/** What the forwarder (or any notifier) calls after it tried to deliver an alert. */
export interface DeliveryRecorder {
  recordDelivery(alertId: string, delivery: TimelineDelivery): void;
}

export interface TimelineRecorderOptions {
  dir: string;
  clock: Clock;
  settings: () => TimelineSettingsView;
  /** The status changed (not on every write). */
  onStatus?: (status: TimelineStatus) => void;
  /** One sentence the user must see once (a damaged file moved aside). */
  onNotice?: (message: string) => void;
  /**
   * WAL checkpoints in a worker thread (checkpointer.ts), not in the commit that crosses SQLite's
   * threshold on this thread: the engine host sets it (every CHECKPOINT_MS); tests leave SQLite's own.
   */
  checkpointInWorker?: boolean | { everyMs: number };
  /** Tests: how the writer opens (e.g. the file read-only, so SQLite itself refuses the writes). */
  open?: (dir: string, options: OpenOptions) => WriterOpen;
}

type Input = TimelineRecord | { t: 'inv'; ctx: string; inv: GpuInventoryStatus; at: number };

const UNREACHABLE = new Set(['unreachable', 'unauthorized', 'forbidden', 'config-error']);

export class TimelineRecorder implements DeliveryRecorder {
  readonly #o: TimelineRecorderOptions;
  readonly #clock: Clock;
  #handle: WriterHandle | null = null;
  #checkpointer: Checkpointer | null = null;
  #writes: TimelineWrites | null = null;
  #status: TimelineStatus = {
    state: 'not-recording',
    kind: 'starting',
    reason: 'the timeline has not started',
    since: 0,
  };
  #queue: Input[] = [];
  /** A write met a damaged file: the next open moves it aside. */
  #damaged = false;
  #previousAlive: number | null = null;
  readonly #states = new Map<string, Map<string, NodeState>>();
  /** Per context, the entries of the last inventory diffed (unchanged entries are shared objects). */
  readonly #entries = new Map<string, readonly GpuNodeEntry[]>();
  /** Per context, the free GPUs by product last queued. */
  readonly #free = new Map<string, Map<string, number>>();
  /** Contexts with an open unreachable span. */
  readonly #down = new Set<string>();
  #flushTimer: unknown = null;
  #retryTimer: unknown = null;
  /** Failed opens since the timeline last recorded. */
  #retries = 0;
  #beatTimer: unknown = null;
  #lastBeat = 0;
  #lastPrune = 0;
  #lastInput = 0;
  #stopped = false;

  constructor(options: TimelineRecorderOptions) {
    this.#o = options;
    this.#clock = options.clock;
  }

  get status(): TimelineStatus {
    return this.#status;
  }

  /** When the run before this one last wrote (epoch ms), null when unknown; read at start. */
  get previousAliveAt(): number | null {
    return this.#previousAlive;
  }

  /** Opens the database (or says why not) and starts the heartbeat. */
  start(): void {
    this.#open();
    this.#beat();
  }

  inventory(ctx: string, inv: GpuInventoryStatus): void {
    this.#push({ t: 'inv', ctx, inv, at: this.#clock.now() });
  }

  connection(ctx: string, state: ConnectionState): void {
    const now = this.#clock.now();
    if (UNREACHABLE.has(state.phase) && !this.#down.has(ctx)) {
      this.#down.add(ctx);
      const since = Date.parse(state.since);
      const from = Number.isFinite(since) && since <= now ? since : now;
      this.#push({ t: 'span-open', ctx, kind: 'unreachable', from, to: null, message: state.message });
    } else if (state.phase === 'live' && this.#down.delete(ctx)) {
      this.#push({ t: 'span-close', ctx, kind: 'unreachable', to: now });
    }
  }

  alert(alert: Omit<TimelineAlert, 'deliveries' | 'at'> & { at: string; context: string }): void {
    const at = Date.parse(alert.at);
    const { context, ...rest } = alert;
    this.#push({
      t: 'alert',
      ctx: context,
      alert: { ...rest, at: Number.isFinite(at) ? at : this.#clock.now() },
    });
  }

  recordDelivery(alertId: string, delivery: TimelineDelivery): void {
    this.#push({ t: 'delivery', alert: alertId, delivery });
  }

  /** Kubernetes events about a GPU node, each with its uid (deduplicated by uid, the count kept). */
  events(ctx: string, events: readonly (TimelineEvent & { uid: string })[]): void {
    for (const { uid, ...event } of events) this.#push({ t: 'event', ctx, uid, event });
  }

  /**
   * The free GPUs by product now (known figures only): a row for each product whose figure changed since
   * the last call, and 0 for a product no longer there. At most MAX_FREE_PRODUCTS products a context.
   */
  free(ctx: string, products: readonly { label: string; free: number }[]): void {
    const at = this.#clock.now();
    const last = this.#free.get(ctx) ?? new Map<string, number>();
    const next = new Map<string, number>();
    for (const p of products.slice(0, MAX_FREE_PRODUCTS)) {
      const product = p.label.slice(0, 200);
      if (product === '' || !Number.isInteger(p.free) || p.free < 0) continue;
      next.set(product, (next.get(product) ?? 0) + p.free);
    }
    for (const [product, free] of next)
      if (last.get(product) !== free) this.#push({ t: 'free', ctx, at, product, free });
    for (const product of last.keys())
      if (!next.has(product)) this.#push({ t: 'free', ctx, at, product, free: 0 });
    this.#free.set(ctx, next);
  }

  telemetry(r: TelemetryReading): void {
    if (r.gpus === null) return;
    for (const g of r.gpus)
      this.#push({
        t: 'sample',
        ctx: r.context,
        sample: {
          node: r.node,
          gpu: g.index,
          at: r.at,
          util: g.util,
          temp: g.temp,
          power: g.power,
          mem: g.fbUsed,
          xid: g.xid,
        },
      });
  }

  /** A range of one context; from this process's connection, or a read-only one while another writes. */
  read(q: TimelineQuery): TimelineView {
    // What is queued goes in first, so a window reads every alert it was just sent.
    this.flushAll();
    if (this.#handle) return readTimeline(this.#handle.db, q, this.#status);
    const r = openReader(this.#o.dir);
    if (!r.ok) return { ...readTimelineEmpty(q), status: this.#status };
    try {
      return readTimeline(r.db, q, this.#status);
    } finally {
      r.db.close();
    }
  }

  /** Has the worker checkpoint now (tests; null without one). */
  checkpointNow(): Promise<CheckpointResult | null> {
    return this.#checkpointer?.now() ?? Promise.resolve(null);
  }

  /** Writes everything queued now (the host calls it before it exits; tests call it to look). */
  flushAll(): void {
    for (let i = 0; i < 1_000 && this.#queue.length > 0 && this.#handle; i++)
      if (!this.#flushBatch(false)) break;
  }

  stop(): void {
    this.flushAll();
    this.#stopped = true;
    for (const t of [this.#flushTimer, this.#retryTimer, this.#beatTimer])
      if (t !== null) this.#clock.clearTimeout(t);
    this.#flushTimer = this.#retryTimer = this.#beatTimer = null;
    this.#close();
  }

  #push(input: Input): void {
    if (this.#stopped) return;
    this.#lastInput = this.#clock.now();
    if (this.#status.state === 'read-only') return;
    this.#queue.push(input);
    // While nothing is written the oldest inputs go first; the not-recording span covers that time.
    if (this.#queue.length > QUEUE_MAX) this.#queue.splice(0, this.#queue.length - QUEUE_MAX);
    if (this.#handle && this.#flushTimer === null)
      this.#flushTimer = this.#clock.setTimeout(() => this.#onFlushTimer(), FLUSH_MS);
  }

  #onFlushTimer(): void {
    this.#flushTimer = null;
    if (!this.#handle) return;
    const ok = this.#flushBatch(true);
    if (ok && this.#queue.length > 0)
      this.#flushTimer = this.#clock.setTimeout(() => this.#onFlushTimer(), 0);
  }

  #setStatus(next: TimelineStatus): void {
    const same = JSON.stringify(next) === JSON.stringify(this.#status);
    this.#status = next;
    if (!same) this.#o.onStatus?.(next);
  }

  #open(): void {
    const now = this.#clock.now();
    const opened = (this.#o.open ?? openWriter)(this.#o.dir, { now, moveAside: this.#damaged });
    if (!opened.ok) {
      this.#fail(opened.fault);
      return;
    }
    this.#damaged = false;
    this.#handle = opened.handle;
    if (this.#o.checkpointInWorker) {
      try {
        opened.handle.db.exec('PRAGMA wal_autocheckpoint = 0');
        const every =
          this.#o.checkpointInWorker === true ? CHECKPOINT_MS : this.#o.checkpointInWorker.everyMs;
        this.#checkpointer = new Checkpointer(path.join(this.#o.dir, TIMELINE_FILE), every);
      } catch {
        // No worker thread to be had: SQLite checkpoints in the commits as it would anyway.
        opened.handle.db.exec('PRAGMA wal_autocheckpoint = 1000');
      }
    }
    this.#writes = new TimelineWrites(opened.handle.db);
    if (opened.handle.notice) this.#o.onNotice?.(opened.handle.notice);
    try {
      this.#load(opened.handle.db, now);
    } catch (error) {
      // #fail closes the handle: the retry opens it again.
      this.#fail(classifyFault(error));
      return;
    }
    const was = this.#status;
    if (was.state === 'not-recording' && was.since > 0) {
      // After a failure the file opening is not enough: only a write that works ends the state.
      if (!this.#flushBatch(true)) return;
      this.#queue.unshift({
        t: 'span-open',
        ctx: ALL_CONTEXTS,
        kind: 'not-recording',
        from: was.since,
        to: this.#clock.now(),
        message: was.reason,
      });
    }
    this.#retries = 0;
    this.#setStatus({ state: 'recording' });
    if (this.#queue.length > 0 && this.#flushTimer === null)
      this.#flushTimer = this.#clock.setTimeout(() => this.#onFlushTimer(), 0);
  }

  /** What the last run left: node states, open unreachable spans, and when it was last alive. */
  #load(db: DatabaseSync, now: number): void {
    this.#states.clear();
    for (const r of db.prepare('SELECT ctx, node, ready, gpus, labels FROM node_state').all() as Record<
      string,
      string
    >[]) {
      const ctx = r.ctx as string;
      const m = this.#states.get(ctx) ?? new Map<string, NodeState>();
      m.set(r.node as string, {
        ready: r.ready as string,
        gpus: r.gpus as string,
        labels: r.labels as string,
      });
      this.#states.set(ctx, m);
    }
    // Rows derived but not yet written (a write failed, the file reopens): the states they lead to.
    for (const q of this.#queue) {
      if (q.t !== 'state') continue;
      const m = this.#states.get(q.ctx) ?? new Map<string, NodeState>();
      if (q.state === null) m.delete(q.node);
      else m.set(q.node, q.state);
      this.#states.set(q.ctx, m);
    }
    this.#down.clear();
    for (const r of db
      .prepare("SELECT DISTINCT ctx FROM spans WHERE kind = 'unreachable' AND t IS NULL")
      .all())
      this.#down.add(String((r as { ctx: unknown }).ctx));
    const alive = db.prepare("SELECT value FROM meta WHERE key = 'alive_at'").get() as
      | { value: string }
      | undefined;
    const last = alive ? Number(alive.value) : Number.NaN;
    if (Number.isFinite(last)) this.#previousAlive = last;
    if (Number.isFinite(last) && now - last > GAP_MS)
      this.#queue.unshift({
        t: 'span-open',
        ctx: ALL_CONTEXTS,
        kind: 'not-recording',
        from: last,
        to: now,
        message: NOT_RUNNING,
      });
  }

  /**
   * One transaction of up to BATCH rows, or (`sliced`, the timer's turns) SLICE rows: what is left waits
   * for the next turn, so even a 5,000-node first inventory is written across many short tasks. False
   * when it failed (the rows stay queued).
   */
  #flushBatch(sliced: boolean): boolean {
    const handle = this.#handle;
    const writes = this.#writes;
    if (!handle || !writes) return false;
    const now = this.#clock.now();
    const most = sliced ? SLICE : BATCH;
    let taken = 0;
    try {
      handle.db.exec('BEGIN IMMEDIATE');
      while (taken < this.#queue.length && taken < most) {
        const input = this.#queue[taken] as Input;
        if (input.t === 'inv') {
          // Derived where it stands: its rows take its place in the queue, written from here on.
          this.#replaceAt(taken, this.#derive(input));
          continue;
        }
        writes.apply(input);
        taken++;
      }
      writes.alive(now);
      handle.db.exec('COMMIT');
    } catch (error) {
      try {
        handle.db.exec('ROLLBACK');
      } catch {
        // No transaction left to roll back (SQLite ends it itself on some I/O errors).
      }
      this.#fail(classifyFault(error));
      return false;
    }
    this.#queue.splice(0, taken);
    this.#lastBeat = now;
    return true;
  }

  #replaceAt(i: number, rows: TimelineRecord[]): void {
    const q = this.#queue;
    this.#queue = q.slice(0, i).concat(rows, q.slice(i + 1));
  }

  /**
   * Diffs one inventory against the node states so far and returns its rows. The states move on at
   * once (the rows stay queued until written, and a reopen replays the queued ones onto the file's).
   */
  #derive(input: Extract<Input, { t: 'inv' }>): TimelineRecord[] {
    let states = this.#states.get(input.ctx);
    if (!states) {
      states = new Map();
      this.#states.set(input.ctx, states);
    }
    // A node down for longer than the timeline keeps is shown as down since the retention's start (an
    // hour inside it), not dated where the next prune would delete it.
    const earliest = input.at - this.#o.settings().retentionDays * DAY_MS + HOUR_MS;
    const diff = diffInventory(states, input.inv, input.at, this.#entries.get(input.ctx), earliest);
    this.#entries.set(input.ctx, input.inv.nodes);
    const rows: TimelineRecord[] = [];
    for (const [node, state] of diff.put) {
      states.set(node, state);
      rows.push({ t: 'state', ctx: input.ctx, node, state });
    }
    for (const node of diff.removed) {
      states.delete(node);
      rows.push({ t: 'state', ctx: input.ctx, node, state: null });
    }
    for (const change of diff.changes) rows.push({ t: 'change', ctx: input.ctx, change });
    const inv = input.inv;
    const point = {
      at: input.at,
      ready: inv.ready_gpu_nodes,
      total: inv.total_gpu_nodes,
      gpus: inv.total_gpus,
    };
    rows.push({ t: 'count', ctx: input.ctx, point });
    return rows;
  }

  /** Closes the file (the retry opens it again) and says why nothing is written. */
  #fail(fault: TimelineFault): void {
    this.#close();
    // Reopening moves the damaged file aside and starts a fresh one.
    if (fault.kind === 'corrupt') this.#damaged = true;
    if (fault.kind === 'busy') {
      this.#queue = [];
      this.#setStatus({ state: 'read-only', reason: fault.reason });
    } else {
      const since =
        this.#status.state === 'not-recording' && this.#status.since > 0
          ? this.#status.since
          : this.#clock.now();
      this.#setStatus({ state: 'not-recording', kind: fault.kind, reason: fault.reason, since });
    }
    if (this.#retryTimer !== null || this.#stopped) return;
    const wait = backoffStep(RETRY, this.#retries++);
    this.#retryTimer = this.#clock.setTimeout(() => {
      this.#retryTimer = null;
      this.#open();
    }, wait);
  }

  /** Every HEARTBEAT_MS: the alive mark, retention now and then, VACUUM when idle. */
  #beat(): void {
    if (this.#stopped) return;
    this.#beatTimer = this.#clock.setTimeout(() => this.#beat(), HEARTBEAT_MS);
    const handle = this.#handle;
    if (!handle || this.#status.state !== 'recording') return;
    const now = this.#clock.now();
    try {
      if (now - this.#lastBeat >= HEARTBEAT_MS && this.#queue.length === 0) {
        this.#writes?.alive(now);
        this.#lastBeat = now;
      }
      if (now - this.#lastPrune >= PRUNE_MS) {
        this.#lastPrune = now;
        const s = this.#o.settings();
        prune(handle.db, now, s.retentionDays, s.maxMB * 1024 * 1024);
        if (now - this.#lastInput >= IDLE_MS) vacuumIfWorth(handle.db);
      }
    } catch (error) {
      this.#fail(classifyFault(error));
    }
  }

  #close(): void {
    this.#checkpointer?.stop();
    this.#checkpointer = null;
    try {
      this.#handle?.db.close();
    } catch {
      // Already closed.
    }
    try {
      this.#handle?.lock.close();
    } catch {
      // Already closed.
    }
    this.#handle = null;
    this.#writes = null;
  }
}

export function readTimelineEmpty(q: TimelineQuery): Omit<TimelineView, 'status'> {
  return {
    context: q.context,
    from: q.from,
    to: q.to,
    node: q.node ?? null,
    counts: [],
    changes: [],
    spans: [],
    alerts: [],
    events: [],
    episodes: [],
    telemetry: [],
    energy: { nodes: [], kwh: 0 },
    free: [],
    truncated: false,
  };
}
