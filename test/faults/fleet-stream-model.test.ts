/**
 * A model-based test (fast-check commands) of the fleet stream from one engine host to two windows. The
 * desktop window: the host's real SnapshotPublisher, its pushes through the shell's real EngineHostClient
 * and PushQueue, invoke replies through `settleReply`, into a FleetStream. The browser tab: the web
 * bridge's real FleetFrames and SseClient, the SSE text parsed back as EventSource does (its last event
 * id kept across reconnections and sent as Last-Event-ID), and the page's real `createWebFleet` feeding a
 * FleetStream. Fakes only carry things: the messages in flight to the desktop window (one ordered pipe for
 * pushes and replies), the bridge's socket, fetch and EventSource, and the host's answer to a read (the
 * bridge's own read is answered at once, as browser mode's in-process host does).
 *
 * Commands interleave fleet changes (published at once, or only at the next read's answer, as
 * `AppCore.published` does), host crashes (a new publisher, a new epoch; the dead host's pushes still in
 * flight may be lost), deliveries, SSE cuts and reconnections (or a fresh tab), a slow socket, and a
 * window's read answered with the host's snapshot at answer time, or failed. After every step every
 * stream shows exactly the snapshot the host published at its (epoch, seq), and none has two reads in
 * flight; after a bounded drain both windows show the host's current snapshot at its mark, having read
 * whole snapshots only for a cause. What a window must show comes from the host's own record of what it
 * published at each place. Seeded: a failure prints the seed and the shrunk commands.
 */
import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FleetSnapshot } from '../../common/fleet.ts';
import { FleetStream } from '../../common/fleet-stream.ts';
import { type SyncedSnapshot, type SyncMark, syncId, unstamped } from '../../common/fleet-sync.ts';
import type { HostMessage, HostReply, ShellMessage } from '../../common/host-protocol.ts';
import { type PushChannel, type PushEvents, settleReply } from '../../common/ipc.ts';
import { EngineHostClient, type HostChild, RESTART_MAX_MS } from '../../main/electron/engine-host-client.ts';
import { PushQueue } from '../../main/electron/push-queue.ts';
import type { InvokeHandlers } from '../../main/fleet/host.ts';
import { SnapshotPublisher } from '../../main/fleet/snapshot-publisher.ts';
import { FleetFrames } from '../../main/web/fleet-frames.ts';
import { SseClient } from '../../main/web/sse.ts';
import { createWebFleet } from '../../renderer/bridge/web-fleet.ts';
import { context, fleet, inventory, node } from '../../renderer/fixtures/homelab.ts';
import { ManualClock } from '../helpers/manual-clock.ts';

const RUNS = { seed: 2027, numRuns: 150 };
const MAX_COMMANDS = 40;
/** Drain steps before the streams must be quiet (each step delivers one message or answers one read). */
const DRAIN_STEPS = 400;
/** About one delta: a slow tab's second held delta trades them for a whole snapshot (sse.ts). */
const SSE_LIMITS = { maxBlockedMs: 60_000, maxHeldBytes: 1024 * 1024, maxHeldDeltaBytes: 400 };

// ---------------------------------------------------------------------------------------------------
// The fleet the host's engine sees, as a small spec; snapshots are built fresh from it (never mutated).

interface Spec {
  contexts: { name: string; nodes: { name: string; ready: boolean }[] }[];
  focused: string | null;
}

type Change =
  | { kind: 'flip'; c: number; n: number }
  | { kind: 'add-node'; c: number }
  | { kind: 'remove-node'; c: number; n: number }
  | { kind: 'add-context' }
  | { kind: 'remove-context'; c: number }
  | { kind: 'focus'; c: number };

const build = (spec: Spec): FleetSnapshot =>
  fleet(
    spec.contexts.map((c) =>
      context(c.name, inventory(c.nodes.map((n) => node(n.name, { ready: n.ready, count: 1 })))),
    ),
    spec.focused,
  );

/** The snapshot as a window gets it: JSON, so missing and undefined fields are alike. */
const asJson = (s: FleetSnapshot): FleetSnapshot => JSON.parse(JSON.stringify(s)) as FleetSnapshot;

function applyChange(spec: Spec, change: Change, fresh: () => string): Spec {
  const cs = spec.contexts;
  const at = (i: number) => (cs.length === 0 ? -1 : i % cs.length);
  const withNodes = (i: number, nodes: Spec['contexts'][number]['nodes']) => ({
    ...spec,
    contexts: cs.map((c, j) => (j === i ? { ...c, nodes } : c)),
  });
  const i = 'c' in change ? at(change.c) : -1;
  const ctx = cs[i];
  switch (change.kind) {
    case 'flip': {
      if (!ctx || ctx.nodes.length === 0) return spec;
      const k = change.n % ctx.nodes.length;
      return withNodes(
        i,
        ctx.nodes.map((n, j) => (j === k ? { ...n, ready: !n.ready } : n)),
      );
    }
    case 'add-node':
      return ctx ? withNodes(i, [...ctx.nodes, { name: fresh(), ready: true }]) : spec;
    case 'remove-node': {
      if (!ctx || ctx.nodes.length === 0) return spec;
      const k = change.n % ctx.nodes.length;
      return withNodes(
        i,
        ctx.nodes.filter((_n, j) => j !== k),
      );
    }
    case 'add-context':
      return { ...spec, contexts: [...cs, { name: fresh(), nodes: [{ name: fresh(), ready: false }] }] };
    case 'remove-context':
      return ctx ? { ...spec, contexts: cs.filter((_c, j) => j !== i) } : spec;
    case 'focus':
      return { ...spec, focused: ctx?.name ?? null };
  }
}

// ---------------------------------------------------------------------------------------------------
// The transports.

/** One message in flight to the desktop window: a push as JSON text, or an invoke's reply. */
type ToWindow =
  | { kind: 'push'; channel: PushChannel; json: string; host: number }
  | { kind: 'reply'; deliver: () => void };

/** A read the host has been asked and not yet answered. */
interface PendingRead {
  who: 'desktop' | 'tab';
  answer(value: SyncedSnapshot): void;
  fail(): void;
}

/** An engine host process as the shell sees it; the world says what it says. */
class HostProcess implements HostChild {
  readonly #world: World;
  #message: (m: unknown) => void = () => undefined;
  readonly #exits: ((code: number | null) => void)[] = [];
  alive = true;

  constructor(world: World) {
    this.#world = world;
  }
  post(m: ShellMessage): void {
    if (m.type !== 'invoke' || m.channel !== 'fleet:snapshot') return;
    const reply = (r: HostReply) => this.say({ type: 'reply', id: m.id, reply: r });
    this.#world.pending.push({
      who: 'desktop',
      answer: (value) => reply({ ok: true, json: JSON.stringify(value) }),
      fail: () => reply({ ok: false, error: { kind: 'failed', message: 'The engine could not read.' } }),
    });
  }
  onMessage(listener: (m: unknown) => void): void {
    this.#message = listener;
  }
  onExit(listener: (code: number | null) => void): void {
    this.#exits.push(listener);
  }
  kill(): void {
    this.crash(null);
  }
  say(m: HostMessage): void {
    if (this.alive) this.#message(m);
  }
  crash(code: number | null): void {
    if (!this.alive) return;
    this.alive = false;
    for (const l of this.#exits) l(code);
  }
}

/** The part of an http.ServerResponse SseClient writes to: what it writes is in flight to the browser. */
class FakeSocket extends EventEmitter {
  inFlight: string[] = [];
  /** The socket's buffer is full: `write` says so (what it was given still goes). */
  full = false;
  destroyed = false;

  get writableLength(): number {
    return this.inFlight.reduce((n, s) => n + s.length, 0);
  }
  write(chunk: string): boolean {
    if (this.destroyed) return false;
    this.inFlight.push(chunk);
    return !this.full;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.inFlight = [];
    this.emit('close');
  }
  end(): void {
    this.destroy();
  }
}

/** One event-stream connection of the bridge, wired as main/web/server.ts wires it. */
class Connection {
  readonly socket = new FakeSocket();
  readonly client: SseClient;
  /** The id of the last fleet frame this connection was sent (server.ts `fleetIds`). */
  lastSent: string | undefined;

  constructor(world: World, lastEventId: string | undefined) {
    this.client = new SseClient(this.socket as unknown as http.ServerResponse, world.clock, SSE_LIMITS, () =>
      world.bridge.whole(),
    );
    this.client.send('', ': connected\n\n');
    world.bridge.catchUp(
      () => this.lastSent ?? lastEventId,
      (channel, frame) => this.client.send(channel, frame),
    );
  }
}

type Listener = (event: { data: string; lastEventId: string }) => void;

/**
 * A browser's EventSource for `createWebFleet`: parses the event-stream text as the HTML standard says
 * (fields, comments, dispatch on a blank line) and keeps its last event id across connections, starting
 * each new connection's id buffer from it (as Chromium and Firefox do).
 */
class FakeEventSource {
  static world: World | null = null;
  lastEventId = '';
  readonly #listeners = new Map<string, Set<Listener>>();
  #text = '';
  #type = '';
  #data = '';
  #id = '';

  constructor(_url: string) {
    const world = FakeEventSource.world;
    if (!world) throw new Error('no world for this EventSource');
    world.opened(this);
  }
  addEventListener(type: string, listener: Listener): void {
    const set = this.#listeners.get(type) ?? new Set();
    set.add(listener);
    this.#listeners.set(type, set);
  }
  close(): void {}

  /** A new connection: what was half-read is gone, the last event id stays. */
  reconnected(): void {
    this.#text = '';
    this.#type = '';
    this.#data = '';
    this.#id = this.lastEventId;
  }
  feed(chunk: string): void {
    this.#text += chunk;
    for (let nl = this.#text.indexOf('\n'); nl >= 0; nl = this.#text.indexOf('\n')) {
      const line = this.#text.slice(0, nl).replace(/\r$/, '');
      this.#text = this.#text.slice(nl + 1);
      this.#line(line);
    }
  }
  #line(line: string): void {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const raw = colon < 0 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'event') this.#type = value;
    else if (field === 'data') this.#data += `${value}\n`;
    else if (field === 'id' && !value.includes('\0')) this.#id = value;
  }
  #dispatch(): void {
    this.lastEventId = this.#id;
    const type = this.#type || 'message';
    const data = this.#data.replace(/\n$/, '');
    const had = this.#data !== '';
    this.#type = '';
    this.#data = '';
    if (!had) return;
    FakeEventSource.world?.heard(type, data, this.lastEventId);
    for (const l of this.#listeners.get(type) ?? []) l({ data, lastEventId: this.lastEventId });
  }
}

// ---------------------------------------------------------------------------------------------------
// The windows.

/** A window's FleetStream and its reads, wired as renderer/state/fleet.svelte.ts wires it. */
class FleetWindow {
  readonly stream: FleetStream;
  reads = 0;
  #inFlight = 0;
  lastReadFailed = false;

  constructor(
    readonly name: string,
    world: World,
    read: () => Promise<SyncedSnapshot>,
  ) {
    this.stream = new FleetStream(
      () => {
        this.reads++;
        this.#inFlight++;
        if (this.#inFlight > 1) world.violation(`${name} has two reads in flight`);
        return read().then(
          (s) => {
            this.#inFlight--;
            this.lastReadFailed = false;
            return s;
          },
          (e: unknown) => {
            this.#inFlight--;
            this.lastReadFailed = true;
            throw e;
          },
        );
      },
      (s) => world.shown(name, this.stream.mark, s),
      () => undefined,
    );
  }

  /** The page starts: its own read (FleetStore.start); a failure waits for the next push. */
  start(): void {
    this.stream.sync().catch(() => undefined);
  }
}

/** The host, the shell, the bridge and both windows, and what is in flight between them. */
class World {
  readonly clock = new ManualClock();
  /** What the host published at each `<epoch>:<seq>`, as JSON. */
  readonly published = new Map<string, FleetSnapshot>();
  readonly violations: string[] = [];
  readonly #lastShown = new Map<string, SyncMark>();
  pending: PendingRead[] = [];
  toWindow: ToWindow[] = [];
  spec: Spec = {
    contexts: [
      {
        name: 'lab',
        nodes: [
          { name: 'gpu-a', ready: true },
          { name: 'gpu-b', ready: false },
        ],
      },
      { name: 'office', nodes: [{ name: 'a1', ready: true }] },
    ],
    focused: 'lab',
  };
  engine: FleetSnapshot = build(this.spec);
  /** The engine's snapshot changed and has not been published yet. */
  unpublished = false;
  host = 0;
  #names = 0;
  #child: HostProcess | null = null;
  #publisher: SnapshotPublisher | null = null;
  readonly client: EngineHostClient;
  readonly #queue: PushQueue;
  readonly bridge: FleetFrames;
  #bridgeReads = 0;
  #bridgeInFlight = 0;
  #bridgeListening = false;
  connection: Connection | null = null;
  source: FakeEventSource | null = null;
  readonly desktop: FleetWindow;
  tab!: FleetWindow;
  readonly tabs: FleetWindow[] = [];

  constructor() {
    this.client = new EngineHostClient({
      spawn: () => {
        this.#child = new HostProcess(this);
        return this.#child;
      },
      init: { settingsDir: 'settings', version: 'model', systemLanguages: ['en'] },
      clock: this.clock,
      log: () => undefined,
    });
    this.#queue = new PushQueue({
      send: (channel, json) => this.toWindow.push({ kind: 'push', channel, json, host: this.host }),
    });
    this.client.on('push', (channel, json) => this.#queue.send(channel, json));
    this.client.setWindowOpen(true);
    this.client.start();
    this.#boot();
    // The bridge starts after the engine published its first snapshot (it reads one).
    this.bridge = new FleetFrames({
      handlers: { 'fleet:snapshot': () => this.#bridgeRead() } as unknown as InvokeHandlers,
      onPush: () => () => undefined,
    });
    this.#bridgeListening = true;
    this.desktop = new FleetWindow('the desktop window', this, () =>
      this.client
        .invoke('fleet:snapshot', [])
        // The reply goes to the window down the same pipe as the pushes, in order.
        .then(
          (reply) =>
            new Promise<HostReply>((deliver) =>
              this.toWindow.push({ kind: 'reply', deliver: () => deliver(reply) }),
            ),
        )
        .then((reply) => settleReply(reply) as Promise<SyncedSnapshot>),
    );
    this.#queue.markReady();
    this.desktop.start();
    // The page's EventSource (and fetch) find their world here.
    FakeEventSource.world = this;
    this.openTab();
  }

  get publisher(): SnapshotPublisher {
    if (!this.#publisher) throw new Error('no host');
    return this.#publisher;
  }

  violation(what: string): void {
    this.violations.push(what);
  }

  /**
   * A window shows `s` at `mark`: it must be exactly what the host published there, and not older than
   * what it showed before in the same epoch.
   */
  shown(who: string, mark: SyncMark | null, s: FleetSnapshot): void {
    if (mark === null) {
      this.violation(`${who} shows a snapshot without a place in the stream`);
      return;
    }
    const before = this.#lastShown.get(who);
    if (before && before.epoch === mark.epoch && before.seq > mark.seq)
      this.violation(`${who} went back from ${syncId(before)} to ${syncId(mark)}`);
    this.#lastShown.set(who, mark);
    const id = syncId(mark);
    const expected = this.published.get(id);
    if (!expected) this.violation(`${who} shows ${id}, which the host never published`);
    else if (!isDeepStrictEqual(asJson(s), expected))
      this.violation(`${who} shows at ${id} a snapshot that is not the one published there`);
  }

  /** The tab heard a fleet frame: its SSE id is the place a window holds once it has taken it in. */
  heard(type: string, data: string, id: string): void {
    if (type !== 'fleet:snapshot' && type !== 'fleet:delta' && type !== 'fleet:mark') return;
    const p = JSON.parse(data) as { epoch: string; seq?: number; to?: number };
    const place = syncId({ epoch: p.epoch, seq: (type === 'fleet:delta' ? p.to : p.seq) ?? Number.NaN });
    if (place !== id) this.violation(`a ${type} frame for ${place} has the id ${id}`);
  }

  // --- the host -------------------------------------------------------------------------------------

  /** The (re)started host says it is ready and publishes its engine's snapshot: a whole one, seq 1. */
  #boot(): void {
    const child = this.#child;
    if (!child) throw new Error('the shell spawned no host');
    this.host++;
    child.say({ type: 'listening' });
    child.say({ type: 'ready' });
    this.#publisher = new SnapshotPublisher((c, p) => this.#pushed(c, p), `host${this.host}`);
    this.publish();
  }

  #pushed<P extends 'fleet:snapshot' | 'fleet:delta'>(channel: P, payload: PushEvents[P]): void {
    const mark =
      channel === 'fleet:snapshot'
        ? (payload as SyncedSnapshot)
        : {
            epoch: (payload as PushEvents['fleet:delta']).epoch,
            seq: (payload as PushEvents['fleet:delta']).to,
          };
    const id = syncId(mark);
    if (this.published.has(id)) this.violation(`the host published ${id} twice`);
    this.published.set(id, asJson(this.engine));
    // Engine host → shell (serve.ts encodes each push once), and the in-process bridge (server.ts).
    this.#child?.say({ type: 'push', channel, json: JSON.stringify(payload) });
    if (this.#bridgeListening) this.#toBridge(channel, payload);
  }

  #toBridge<P extends 'fleet:snapshot' | 'fleet:delta'>(channel: P, payload: PushEvents[P]): void {
    const ours = this.bridge.frame(channel, payload);
    if (!ours) {
      this.violation(`the bridge made no frame of a stamped ${channel}`);
      return;
    }
    const c = this.connection;
    if (!c || c.socket.destroyed) return;
    c.client.send(channel, ours.frame);
    c.lastSent = ours.id;
  }

  /** Publishes the engine's snapshot (AppCore.published); the stamp must be of what was published. */
  publish(): SyncedSnapshot {
    const s = this.publisher.publish(this.engine);
    this.unpublished = false;
    const expected = this.published.get(syncId(s));
    if (!expected || !isDeepStrictEqual(asJson(unstamped(s)), expected))
      this.violation(`the publisher stamped ${syncId(s)} on another snapshot than it published there`);
    return s;
  }

  change(change: Change, now: boolean): void {
    this.spec = applyChange(this.spec, change, () => `n${++this.#names}`);
    const next = build(this.spec);
    if (isDeepStrictEqual(next, this.engine)) return;
    this.engine = next;
    this.unpublished = true;
    if (now) this.publish();
  }

  /** The host crashes; of its pushes still in flight, those `lost` marks never arrive. It restarts. */
  async restart(lost: boolean[]): Promise<void> {
    let k = 0;
    this.toWindow = this.toWindow.filter(
      (m) => m.kind !== 'push' || m.host !== this.host || !(lost[k++] ?? false),
    );
    // The shell fails the reads the dead host had (EngineHostClient: "stopped before it answered").
    this.pending = this.pending.filter((p) => p.who !== 'desktop');
    this.#child?.crash(1);
    await settle();
    this.clock.advance(RESTART_MAX_MS);
    this.#boot();
  }

  /**
   * The bridge's own read: browser mode's host answers it in-process at once (app-handlers.ts
   * `core.published()`), before any other push can come.
   */
  #bridgeRead(): Promise<SyncedSnapshot> {
    this.#bridgeReads++;
    this.#bridgeInFlight++;
    if (this.#bridgeInFlight > 1) this.violation('the bridge has two reads in flight');
    const answer = this.publish();
    return Promise.resolve(answer).finally(() => {
      this.#bridgeInFlight--;
    });
  }

  /** Answers (with the host's snapshot now) or fails a pending read. */
  answer(pick: number, ok: boolean): boolean {
    if (this.pending.length === 0) return false;
    const [read] = this.pending.splice(pick % this.pending.length, 1);
    if (!read) return false;
    if (ok) read.answer(this.publish());
    else read.fail();
    return true;
  }

  get reads(): number {
    return this.desktop.reads + this.#bridgeReads + this.tabs.reduce((n, t) => n + t.reads, 0);
  }

  // --- the desktop window ------------------------------------------------------------------------------

  deliverToWindow(): boolean {
    const m = this.toWindow.shift();
    if (!m) return false;
    if (m.kind === 'reply') {
      m.deliver();
      return true;
    }
    // The preload parses the JSON text; the store hands fleet pushes to its stream.
    const payload = JSON.parse(m.json) as unknown;
    if (m.channel === 'fleet:snapshot') this.desktop.stream.take(payload as SyncedSnapshot);
    else if (m.channel === 'fleet:delta') this.desktop.stream.delta(payload as PushEvents['fleet:delta']);
    return true;
  }

  // --- the browser tab ---------------------------------------------------------------------------------

  /** A new tab (the old one, if any, closed): its page subscribes, which opens the event stream, and reads. */
  openTab(): void {
    this.connection?.socket.destroy();
    const api = createWebFleet('');
    const tab = new FleetWindow(`tab ${this.tabs.length + 1}`, this, () => api.invoke('fleet:snapshot'));
    this.tab = tab;
    this.tabs.push(tab);
    api.on('fleet:snapshot', (s) => tab.stream.take(s));
    api.on('fleet:delta', (d) => tab.stream.delta(d));
    api.on('fleet:mark', (m) => tab.stream.markSeen(m));
    tab.start();
  }

  /** `new EventSource(...)` of a new page: a connection without Last-Event-ID. */
  opened(source: FakeEventSource): void {
    this.source = source;
    this.connection = new Connection(this, undefined);
  }

  /** EventSource reconnects after a cut, sending its last event id when it has one. */
  reconnect(): boolean {
    const source = this.source;
    if (!source || (this.connection && !this.connection.socket.destroyed)) return false;
    source.reconnected();
    this.connection = new Connection(this, source.lastEventId === '' ? undefined : source.lastEventId);
    return true;
  }

  /** The next chunk the bridge wrote reaches the browser (or only its first half). */
  deliverToTab(half: boolean): boolean {
    const c = this.connection;
    const chunk = c?.socket.inFlight[0];
    if (!c || c.socket.destroyed || chunk === undefined || !this.source) return false;
    if (half && chunk.length > 1) {
      const cut = Math.floor(chunk.length / 2);
      c.socket.inFlight[0] = chunk.slice(cut);
      this.source.feed(chunk.slice(0, cut));
    } else {
      c.socket.inFlight.shift();
      this.source.feed(chunk);
    }
    return true;
  }

  /** The network cuts the event stream: what is in flight is lost (the bridge's `cutStreams`). */
  cut(): boolean {
    const c = this.connection;
    if (!c || c.socket.destroyed) return false;
    c.client.drop();
    return true;
  }

  /** The tab stops reading its socket for a while (a frozen tab): the bridge's writes say it is full. */
  block(): boolean {
    const c = this.connection;
    if (!c || c.socket.destroyed || c.socket.full) return false;
    c.socket.full = true;
    return true;
  }

  /** The tab reads again: the socket drains. */
  unblock(): boolean {
    const c = this.connection;
    if (!c || c.socket.destroyed || !c.socket.full) return false;
    c.socket.full = false;
    c.socket.emit('drain');
    return true;
  }

  async fetch(input: unknown): Promise<Response> {
    if (!String(input).endsWith('/api/invoke/fleet:snapshot'))
      throw new Error(`unexpected fetch ${String(input)}`);
    return new Promise((resolve) => {
      const json = (body: unknown, status: number) =>
        resolve(
          new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
        );
      this.pending.push({
        who: 'tab',
        answer: (value) => json({ value }, 200),
        fail: () => json({ error: { kind: 'failed', message: 'The engine could not read.' } }, 500),
      });
    });
  }

  // --- checks -----------------------------------------------------------------------------------------

  /** The bridge's own snapshot (what it sends a connection that is behind) is the one of its id. */
  checkBridge(): void {
    const whole = this.bridge.whole();
    if (whole === null) return;
    const id = /^id: (.*)$/m.exec(whole)?.[1];
    const data = /^data: (.*)$/m.exec(whole)?.[1];
    const s = JSON.parse(data ?? 'null') as SyncedSnapshot;
    if (id !== syncId(s)) this.violation(`the bridge's whole frame ${id} carries ${syncId(s)}`);
    this.shown('the bridge', s, unstamped(s));
  }

  assertSound(): void {
    this.checkBridge();
    expect(this.violations, this.violations.join('; ')).toEqual([]);
  }

  /** Whether `w` shows the host's current snapshot at the host's mark. */
  current(w: FleetWindow): boolean {
    const p = this.publisher;
    const mark = w.stream.mark;
    const shown = w.stream.snapshot;
    return (
      mark !== null &&
      shown !== null &&
      mark.epoch === p.epoch &&
      mark.seq === p.seq &&
      isDeepStrictEqual(asJson(shown), asJson(this.engine))
    );
  }

  /** One step of the drain: the first thing that can move, moved; false when nothing can. */
  drainStep(): boolean {
    if (this.deliverToWindow()) return true;
    if (this.deliverToTab(false)) return true;
    if (this.unblock()) return true;
    if (this.reconnect()) return true;
    if (this.answer(0, true)) return true;
    if (this.unpublished) {
      this.publish();
      return true;
    }
    return false;
  }

  async drain(): Promise<boolean> {
    for (let i = 0; i < DRAIN_STEPS; i++) {
      if (!this.drainStep()) return true;
      await settle();
      this.assertSound();
    }
    return false;
  }
}

/** Lets every promise and event of the fakes settle (nothing here waits on real time). */
async function settle(): Promise<void> {
  for (let i = 0; i < 6; i++) await new Promise<void>((r) => setImmediate(r));
}

// ---------------------------------------------------------------------------------------------------
// The commands.

/**
 * What may cost a whole-snapshot read: a fresh tab reads at start and once more when its mark comes
 * after its answer; a failed read is tried again at the next push; after a host restart a late delta of
 * the dead host may read once. A cut or a slow socket costs none: the bridge sends a whole snapshot.
 */
interface Model {
  freshTabs: number;
  failedReads: number;
  restarts: number;
}

type Cmd = fc.AsyncCommand<Model, World>;

const command = (name: string, act: (w: World, m: Model) => Promise<void> | void): Cmd => ({
  check: () => true,
  async run(m, w) {
    await act(w, m);
    await settle();
    w.assertSound();
  },
  toString: () => name,
});

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('flip' as const), c: fc.nat(5), n: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add-node' as const), c: fc.nat(5) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('remove-node' as const), c: fc.nat(5), n: fc.nat(5) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'add-context' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove-context' as const), c: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('focus' as const), c: fc.nat(5) }) },
);

const changeCmd = fc
  .tuple(changeArb, fc.boolean())
  .map(([c, now]) =>
    command(`change ${JSON.stringify(c)}${now ? '' : ' (published at the next read)'}`, (w) =>
      w.change(c, now),
    ),
  );
const toWindow = fc.constant(command('deliver to the desktop window', (w) => void w.deliverToWindow()));
const toTab = fc
  .oneof(fc.constant(false), fc.constant(false), fc.constant(true))
  .map((half) =>
    command(`deliver to the tab${half ? ' (half a chunk)' : ''}`, (w) => void w.deliverToTab(half)),
  );
const restart = fc.array(fc.boolean(), { maxLength: 6 }).map((lost) =>
  command(`restart host (lost in flight: ${JSON.stringify(lost)})`, async (w, m) => {
    m.restarts++;
    await w.restart(lost);
  }),
);
const block = fc.constant(command('the tab stops reading its socket', (w) => void w.block()));

/** `fc.commands` picks among these evenly: the common ones are listed more than once. */
const COMMANDS: fc.Arbitrary<Cmd>[] = [
  changeCmd,
  changeCmd,
  changeCmd,
  changeCmd,
  toWindow,
  toWindow,
  toWindow,
  toTab,
  toTab,
  toTab,
  restart,
  restart,
  fc.constant(command('cut the event stream', (w) => void w.cut())),
  fc.oneof(fc.constant(false), fc.constant(false), fc.constant(true)).map((fresh) =>
    fresh
      ? command('open a fresh tab', (w, m) => {
          m.freshTabs++;
          w.openTab();
        })
      : command('EventSource reconnects', (w) => void w.reconnect()),
  ),
  block,
  block,
  block,
  fc.constant(command('the tab reads its socket again', (w) => void w.unblock())),
  fc.tuple(fc.nat(3), fc.boolean()).map(([pick, ok]) =>
    command(`${ok ? 'answer' : 'fail'} pending read #${pick}`, (w, m) => {
      if (w.answer(pick, ok) && !ok) m.failedReads++;
    }),
  ),
  fc.nat(3).map((pick) => command(`answer pending read #${pick}`, (w) => void w.answer(pick, true))),
];

// ---------------------------------------------------------------------------------------------------

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.world = null;
});

describe('the fleet stream, modelled', () => {
  it('shows only published snapshots, never reads twice at once, and converges after any interleaving', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.stubGlobal('fetch', (input: unknown) => {
      const world = FakeEventSource.world;
      if (!world) throw new Error('no world for this fetch');
      return world.fetch(input);
    });
    await fc.assert(
      fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: MAX_COMMANDS, size: 'max' }), async (cmds) => {
        const model: Model = { freshTabs: 0, failedReads: 0, restarts: 0 };
        const real = new World();
        await settle();
        real.assertSound();
        await fc.asyncModelRun(() => ({ model, real }), cmds);

        // Quiet: everything delivered, every read answered, a cut stream reconnected.
        expect(await real.drain(), 'the streams did not go quiet (a read loop?)').toBe(true);
        // A window is behind only when its last read failed (it reads again at the next push).
        for (const w of [real.desktop, real.tab]) {
          if (!w.lastReadFailed)
            expect(real.current(w), `${w.name} is not at the host's snapshot`).toBe(true);
        }
        // No read loop: the desktop window, the first tab and the bridge read once each (the tab maybe
        // twice), and every read after that has a cause.
        const { freshTabs, failedReads, restarts } = model;
        expect(real.reads).toBeLessThanOrEqual(4 + 2 * freshTabs + failedReads + restarts);
        // The fleet changes once more (as it does every minute): then every window is current.
        real.change({ kind: 'add-context' }, true);
        expect(await real.drain(), 'the streams did not go quiet (a read loop?)').toBe(true);
        for (const w of [real.desktop, real.tab])
          expect(real.current(w), `${w.name} is not at the host's snapshot`).toBe(true);
      }),
      RUNS,
    );
  });
});
