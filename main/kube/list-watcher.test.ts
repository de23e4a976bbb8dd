// The list+watch loop (list-watcher.ts) against the simulator over real HTTPS: paging, bookmarks, 410,
// restart, stall, errors. It is driven over the engine's Nodes binding (main/fleet/node-watch.ts), the
// resource the simulator has most of; watched-resource.test.ts shows the loop is generic over another one.
// The watcher runs on a ManualClock: backoff, stall and request timers fire only when a test moves time on
// (drive()), so no test waits for a real backoff or depends on how fast the machine is.
import { afterEach, describe, expect, it } from 'vitest';
import type { SimOptions } from '../../sim/index.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { WatcherRecorder } from '../../test/helpers/watcher-recorder.ts';
import { NODES, type NodeWatcher } from '../fleet/node-watch.ts';
import { RECONNECTING_AFTER_MS } from './connection-tracker.ts';
import { ContextClient, type ContextClientOptions } from './context-client.ts';
import { ListWatcher, type ListWatcherOptions, watchContext } from './list-watcher.ts';

const FAST: ListWatcherOptions = {
  backoff: { initialMs: 20, maxMs: 200 },
  watchSeconds: [30, 30],
  // drive() moves virtual time on; only the stall tests want the stall timer to fire.
  stallTimeoutMs: 3_600_000,
  unreachableAfterAttempts: 3,
  unreachableAfterMs: 60_000,
};

let open: { s: SimContext; w: NodeWatcher }[] = [];
afterEach(async () => {
  for (const { s, w } of open) {
    w.stop();
    await s.cleanup();
  }
  open = [];
});

async function setup(
  sim: SimOptions,
  opts: ListWatcherOptions = {},
  context = 'sim-admin',
  client: ContextClientOptions = {},
) {
  const s = await startSimContext(sim);
  const clock = new ManualClock();
  const rec = new WatcherRecorder();
  const w = watchContext(NODES, s.context(context), rec.on, { ...FAST, clock, ...opts, client });
  open.push({ s, w });
  return { s, rec, w, clock, control: s.sim.control };
}

/** A watcher whose client runs on the same manual clock, so every timer it sets is one the test sees. */
function onOneClock(s: SimContext) {
  const clock = new ManualClock();
  const rec = new WatcherRecorder();
  const w = new ListWatcher(NODES, () => new ContextClient(s.context(), { clock }), rec.on, {
    ...FAST,
    clock,
  });
  open.push({ s, w });
  return { clock, rec, w };
}

/**
 * Waits until check() holds, moving virtual time on by stepMs between short real pauses (for the I/O), so
 * the watcher's backoff and stall timers fire. The real-time limit fails the test; it asserts no speed.
 */
async function drive(clock: ManualClock, check: () => boolean, what: string, stepMs = 50): Promise<void> {
  const limit = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > limit) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
    clock.advance(stepMs);
  }
}

// The simulator logs a request when its connection closes, so an open watch is not in the log yet.
const watches = (log: { path: string }[]) => log.filter((r) => r.path.includes('watch=1'));
const lists = (log: { path: string }[]) => log.filter((r) => r.path.startsWith('/api/v1/nodes?limit=100'));
// The one-object list the watcher sends after a silent watch.
const probes = (log: { path: string }[]) => log.filter((r) => r.path === '/api/v1/nodes?limit=1');

describe('ListWatcher of NODES against the simulator', () => {
  it('lists in pages, swaps the set in whole, then watches from the list resourceVersion', async () => {
    const { rec, w, control } = await setup({ scenario: 'large:1200' }, { pageSize: 100 });
    w.start();
    await rec.waitForPhase('live');
    expect(rec.count('replace')).toBe(1);
    expect(rec.cache.view.size).toBe(1200);
    const log = control.requestLog();
    expect(lists(log)).toHaveLength(12);
    expect(
      lists(log)
        .slice(1)
        .every((r) => r.path.includes('continue=')),
    ).toBe(true);
    const name = control.listNodeNames()[5] ?? '';
    const before = rec.cache.view.version;
    control.setNodeReady(name, 'False', 'KubeletNotReady', 'PLEG is not healthy');
    await rec.waitFor(() => rec.cache.view.get(name)?.ready.status === 'False', 'the upsert');
    expect(rec.cache.view.get(name)?.ready.message).toBe('PLEG is not healthy');
    expect(rec.cache.view.version).toBe(before + 1);
    expect(rec.phases).toEqual(['connecting', 'live']);
    w.stop();
    await rec.waitFor(() => watches(control.requestLog()).length === 1, 'the watch in the log');
    expect(watches(control.requestLog())[0]?.path).toMatch(
      /resourceVersion=\d+&allowWatchBookmarks=true&timeoutSeconds=30/,
    );
  });

  it.each([
    [false, ['ask 1', 'got 1', 'ask 2', 'got 2', 'ask 3', 'got 3']],
    [true, ['ask 1', 'ask 2', 'got 1', 'ask 3', 'got 2', 'got 3']],
  ])(
    'eagerNext %s: the list asks for the next page before this one is in only when set',
    async (eagerNext, want) => {
      const s = await startSimContext({ scenario: 'large:30' });
      const clock = new ManualClock();
      const rec = new WatcherRecorder();
      // The real client (each call still goes to the simulator over HTTPS), noting when each list page is
      // asked for and when its whole answer is in.
      const order: string[] = [];
      let asked = 0;
      const makeClient = () => {
        const client = new ContextClient(s.context(), { clock });
        const getJson = client.getJson.bind(client);
        client.getJson = async (path, what, timeoutMs, more) => {
          if (!path.startsWith('/api/v1/nodes?limit=')) return getJson(path, what, timeoutMs, more);
          const n = ++asked;
          order.push(`ask ${n}`);
          const page = await getJson(path, what, timeoutMs, more);
          order.push(`got ${n}`);
          return page;
        };
        return client;
      };
      const w = new ListWatcher(NODES, makeClient, rec.on, { ...FAST, clock, pageSize: 10, eagerNext });
      open.push({ s, w });
      w.start();
      await rec.waitForPhase('live');
      expect(rec.cache.view.size).toBe(30);
      expect(order).toEqual(want);
    },
  );

  it('bookmarks feed the stall timer and advance the resourceVersion without a relist', async () => {
    const { rec, w, control, s, clock } = await setup(
      { scenario: 'homelab', bookmarkIntervalMs: 50 },
      { stallTimeoutMs: 800 },
    );
    w.start();
    await rec.waitForPhase('live');
    const client = new ContextClient(s.context());
    // A write to another resource moves the global resourceVersion; only a bookmark tells the node watch.
    const bump = async (name: string) => {
      const res = await client.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status).toBe(201);
      return Number(JSON.parse(res.body).metadata.resourceVersion);
    };
    const listRv = Number(w.resourceVersion);
    // Three times 600 ms of virtual time (1.8 s, past the 800 ms stall timeout), a bookmark in each.
    for (const name of ['bump1', 'bump2', 'bump3']) {
      const rv = await bump(name);
      await rec.waitFor(() => Number(w.resourceVersion) >= rv, `a bookmark after ${name}`);
      clock.advance(600);
    }
    client.close();
    expect(Number(w.resourceVersion)).toBeGreaterThan(listRv);
    expect(rec.phases).toEqual(['connecting', 'live']);
    expect(watches(control.requestLog())).toHaveLength(0);
    expect(lists(control.requestLog())).toHaveLength(1);
  });

  it('relists on 410 when the resourceVersion was compacted while disconnected, and swaps the new set in', async () => {
    const { rec, w, control } = await setup({ scenario: 'homelab' });
    w.start();
    await rec.waitForPhase('live');
    w.stop();
    control.setNodeReady('nuc1', 'True', 'KubeletReady');
    control.removeNode('cpu3');
    control.compact();
    control.resetRequestLog();
    w.start();
    await rec.waitFor(() => rec.count('replace') === 2, 'the relist');
    await rec.waitForPhase('live');
    expect(rec.cache.view.get('nuc1')?.ready.status).toBe('True');
    expect(rec.cache.view.has('cpu3')).toBe(false);
    expect(rec.phases).toEqual(['connecting', 'live', 'connecting', 'live']);
    expect(lists(control.requestLog())).toHaveLength(1);
  });

  it('re-watches from the last resourceVersion after an API-server restart, without a relist', async () => {
    const { rec, w, control, clock } = await setup({ scenario: 'homelab' });
    w.start();
    await rec.waitForPhase('live');
    const rv = w.resourceVersion;
    control.resetRequestLog();
    await control.restart();
    control.setNodeReady('omen2', 'True');
    await drive(
      clock,
      () => rec.cache.view.get('omen2')?.ready.status === 'True',
      'the change after restart',
    );
    expect(lists(control.requestLog())).toHaveLength(0);
    expect(rec.count('replace')).toBe(1);
    expect(Number(w.resourceVersion)).toBeGreaterThan(Number(rv));
  });

  it('a watch silent while the server answers (stalled) is replaced quietly, and the change arrives', async () => {
    const { rec, w, control, clock } = await setup({ scenario: 'homelab' }, { stallTimeoutMs: 90_000 });
    w.start();
    await rec.waitForPhase('live');
    control.stallWatches(true);
    clock.advance(89_999);
    await new Promise((r) => setImmediate(r));
    expect(probes(control.requestLog())).toHaveLength(0);
    clock.advance(1);
    // The silent watch is dropped, the server probed, and a new watch opened: nothing shown.
    await rec.waitFor(() => probes(control.requestLog()).length === 1, 'the probe');
    await rec.waitFor(() => watches(control.requestLog()).length === 1, 'the dropped watch in the log');
    control.stallWatches(false);
    control.setNodeLabels('nuc1', { 'nvidia.com/gpu.count': '2' });
    await drive(
      clock,
      () => rec.cache.view.get('nuc1')?.labels['nvidia.com/gpu.count'] === '2',
      'the change',
    );
    expect(rec.phases).toEqual(['connecting', 'live']);
    expect(lists(control.requestLog())).toHaveLength(1);
    expect(rec.count('replace')).toBe(1);
  });

  it('goes unauthorized when the token is revoked, and keeps the nodes', async () => {
    const { rec, w, control, clock } = await setup({ scenario: 'homelab' }, {}, 'sim-revocable');
    w.start();
    await rec.waitForPhase('live');
    control.revokeToken('revocable');
    await control.restart();
    await drive(clock, () => rec.phase === 'unauthorized', 'phase unauthorized');
    const st = rec.states.at(-1);
    expect(st?.message).toMatch(/rejected the credentials, or they have expired/);
    expect(st?.retryAt).not.toBeNull();
    expect(rec.cache.view.size).toBe(8);
  });

  it('shows forbidden with the server message, then recovers on retry', async () => {
    const { rec, w, control, clock } = await setup({ scenario: 'homelab' });
    control.failNext(1, 403);
    w.start();
    await rec.waitForPhase('forbidden');
    expect(rec.states.at(-1)?.message).toMatch(/Not allowed listing nodes: simulated failure \(HTTP 403\)/);
    await drive(clock, () => rec.phase === 'live', 'phase live');
    expect(rec.cache.view.size).toBe(8);
  });

  it('goes unreachable when the server is gone, keeping the last nodes (stale, never zero)', async () => {
    const { rec, w, s, clock } = await setup({ scenario: 'homelab' });
    w.start();
    await rec.waitForPhase('live');
    await s.sim.close();
    const gone = clock.now();
    await drive(clock, () => rec.phase === 'unreachable', 'phase unreachable');
    // Nothing is shown for the first RECONNECTING_AFTER_MS; by then the failures add up to unreachable.
    expect(rec.phases).toEqual(['connecting', 'live', 'unreachable']);
    expect(Date.parse(rec.states.at(-1)?.since ?? '')).toBeGreaterThanOrEqual(gone + RECONNECTING_AFTER_MS);
    expect(rec.states.at(-1)?.message).toMatch(/refused the connection/);
    expect(rec.states.at(-1)?.lastLiveAt).not.toBeNull();
    expect(rec.cache.view.size).toBe(8);
    expect(rec.events.filter((e) => e.type === 'replace' && e.objects.length === 0)).toHaveLength(0);
  });

  it('stop() aborts the watch and leaves no timers', async () => {
    const s = await startSimContext({ scenario: 'homelab' });
    const { clock, rec, w } = onOneClock(s);
    w.start();
    await rec.waitForPhase('live');
    expect(clock.pending).toBeGreaterThan(0);
    w.stop();
    expect(clock.pending).toBe(0);
    const n = rec.events.length;
    s.sim.control.setNodeReady('nuc1', 'True');
    // The server logs the watch once its connection is closed: by then a late event would have come.
    await rec.waitFor(() => watches(s.sim.control.requestLog()).length === 1, 'the closed watch in the log');
    clock.advance(60_000);
    expect(rec.events.length).toBe(n);
  });

  it('stop() in the middle of a slow list cancels it and leaves no timers', async () => {
    const s = await startSimContext({ scenario: 'homelab' });
    s.sim.control.setLatency(2000);
    const { clock, rec, w } = onOneClock(s);
    w.start();
    await rec.waitFor(() => clock.pending > 0, 'the list request');
    w.stop();
    expect(clock.pending).toBe(0);
    expect(rec.count('replace')).toBe(0);
    expect(rec.phases).toEqual(['connecting']);
  });
});

describe('silence is not failure (virtual time)', () => {
  // Request timers so long that only a request that is never answered can reach them: how fast this
  // machine answers must not decide the test.
  const PATIENT: ContextClientOptions = { requestTimeoutMs: 3_600_000 };
  const QUIET: ListWatcherOptions = {
    stallTimeoutMs: 90_000,
    probeTimeoutMs: 3_600_000,
    watchSeconds: [3600, 3600],
  };

  /** Moves virtual time on by totalMs in steps, with a short real pause after each for the I/O it starts. */
  async function pass(clock: ManualClock, totalMs: number, stepMs = 2000): Promise<void> {
    for (let t = 0; t < totalMs; t += stepMs) {
      clock.advance(stepMs);
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  it('30 quiet minutes without a bookmark: the silent watch is replaced again and again, nothing shown', async () => {
    const { rec, w, control, clock } = await setup({ scenario: 'homelab' }, QUIET, 'sim-admin', PATIENT);
    w.start();
    await rec.waitForPhase('live');
    const rv = w.resourceVersion;
    await pass(clock, 30 * 60_000);
    // The sim sent no bookmark (nothing moved), so the stall timer fired about every 90 s.
    expect(probes(control.requestLog()).length).toBeGreaterThanOrEqual(15);
    expect(rec.phases).toEqual(['connecting', 'live']);
    expect(rec.count('replace')).toBe(1);
    expect(w.resourceVersion).toBe(rv);
  }, 60_000);

  it('a half-open watch (the connection stops answering, never closes) is detected, replaced, and invisible', async () => {
    const { rec, w, control, clock } = await setup({ scenario: 'homelab' }, QUIET, 'sim-admin', PATIENT);
    w.start();
    await rec.waitForPhase('live');
    expect(control.halfOpenConnections()).toBeGreaterThan(0);
    control.setNodeReady('omen2', 'True');
    await new Promise((r) => setTimeout(r, 50));
    // The change never reaches the half-open watch.
    expect(rec.cache.view.get('omen2')?.ready.status).not.toBe('True');
    await drive(clock, () => rec.cache.view.get('omen2')?.ready.status === 'True', 'the change', 1000);
    expect(clock.now() - Date.parse(rec.states[1]?.since ?? '')).toBeGreaterThanOrEqual(90_000);
    expect(probes(control.requestLog())).toHaveLength(1);
    expect(rec.phases).toEqual(['connecting', 'live']);
    expect(rec.count('replace')).toBe(1);
  });

  it('only a recovery that keeps failing is shown, once it has failed for RECONNECTING_AFTER_MS', async () => {
    const { rec, w, control, clock } = await setup(
      { scenario: 'homelab' },
      {
        ...QUIET,
        probeTimeoutMs: 10_000,
      },
    );
    w.start();
    await rec.waitForPhase('live');
    // The path to the server breaks: the open connections go half-open and new ones are never answered.
    control.halfOpenConnections();
    control.partition('sim-admin', 'timeout');
    const broken = clock.now();
    await drive(clock, () => rec.phases.length > 2, 'a shown failure', 1000);
    const shown = rec.states[2];
    expect(rec.phases.slice(0, 2)).toEqual(['connecting', 'live']);
    expect(['reconnecting', 'unreachable']).toContain(shown?.phase);
    // Silence (90 s) + the probe's time (10 s) + the quiet time: nothing was shown before.
    expect(Date.parse(shown?.since ?? '')).toBeGreaterThanOrEqual(broken + 100_000 + RECONNECTING_AFTER_MS);
    expect(rec.cache.view.size).toBe(8);
    control.heal('sim-admin');
    await drive(clock, () => rec.phase === 'live', 'live again', 1000);
  });
});
