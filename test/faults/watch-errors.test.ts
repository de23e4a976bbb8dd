/**
 * Fault matrix, the watch loop's error policy: a broken server (broken-api.ts, real HTTPS on 127.0.0.1)
 * that fails every list or watch in one way, with the watcher on virtual time (ManualClock, the default
 * 800 ms → 30 s backoff). Each case asserts that the requests stay bounded per virtual minute, that the
 * watcher ends in a named phase with one sentence, that it never claims "live" once the failures start,
 * and that it is still alive afterwards (retryNow brings another request).
 */
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ConnectionPhase } from '../../common/connection.ts';
import { NODES, type NodeWatcher } from '../../main/fleet/node-watch.ts';
import { RECONNECTING_AFTER_MS } from '../../main/kube/connection-tracker.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { MAX_LIST_ITEMS, MAX_LIST_PAGES } from '../../main/kube/list-pages.ts';
import { ListWatcher } from '../../main/kube/list-watcher.ts';
import { MAX_WATCH_LINE_BYTES } from '../../main/kube/stream-request.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { WatcherRecorder } from '../helpers/watcher-recorder.ts';
import { type Answer, type BrokenApi, nodeList, sendJson, startBrokenApi, watchLines } from './broken-api.ts';
import { caData, contextFor, tempDir } from './kubeconfig.ts';
import { useCleanups } from './scope.ts';
import { runVirtual, settle } from './virtual-time.ts';

const cleanup = useCleanups();
const MINUTE = 60_000;
/** With equal jitter at 0.5 the waits are 600 ms, 1.2 s, 2.4 s … 22.5 s: 7 in the first minute. */
const PER_MINUTE = 12;

const isWatch = (p: string) => p.startsWith('/api/v1/nodes?') && p.includes('watch=');
const isList = (p: string) => p.startsWith('/api/v1/nodes') && !p.includes('watch=');

interface Run {
  api: BrokenApi;
  clock: ManualClock;
  rec: WatcherRecorder;
  w: NodeWatcher;
  lists(): number;
  watches(): number;
  run(ms: number, eachStep?: () => void): Promise<void>;
}

async function start(answers: { list: Answer; watch?: Answer }): Promise<Run> {
  const api = await startBrokenApi(answers);
  const ctx = contextFor(
    tempDir(),
    { server: api.url, 'certificate-authority-data': caData(api.caPem) },
    { token: 't' },
  );
  const clock = new ManualClock();
  const rec = new WatcherRecorder();
  const w = new ListWatcher(NODES, () => new ContextClient(ctx, { clock }), rec.on, {
    clock,
    random: () => 0.5,
    watchSeconds: [30, 30],
  });
  cleanup(
    () => api.close(),
    () => w.stop(),
  );
  const activity = () => api.requests.length + rec.events.length;
  w.start();
  return {
    api,
    clock,
    rec,
    w,
    lists: () => api.requests.filter(isList).length,
    watches: () => api.requests.filter(isWatch).length,
    run: (ms, eachStep) => runVirtual(clock, ms, activity, eachStep ? { eachStep } : {}),
  };
}

/** After the first reported failure, the phase never says live again. */
function neverLiveAfterFailure(rec: WatcherRecorder): void {
  const states = rec.states;
  const first = states.findIndex((s) => s.message !== null);
  expect(first).toBeGreaterThan(-1);
  expect(states.slice(first).map((s) => s.phase)).not.toContain('live');
}

/** Still alive: retryNow() brings another request at once (no clock needed). */
async function revives(r: Run): Promise<void> {
  const before = r.api.requests.length;
  r.w.retryNow();
  await r.rec.waitFor(() => r.api.requests.length > before, 'a request after retryNow');
}

function expectNamed(r: Run, phases: ConnectionPhase[], message: RegExp): void {
  const last = r.rec.states.at(-1);
  expect(phases).toContain(last?.phase);
  expect(last?.message).toMatch(message);
  // One sentence: one line, short.
  expect(last?.message ?? '').not.toMatch(/\n/);
  expect((last?.message ?? '').length).toBeLessThan(300);
}

const status = (code: number, reason: string, message = `simulated ${reason}`) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code });
const errorEvent = (code: unknown, reason = 'Expired') =>
  `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'x', reason, code } })}\n`;
const LIST = nodeList();

describe('watch error policy: 410 storms', () => {
  it('a server that answers every watch with an ERROR 410 event gets a bounded number of LISTs, backed off', async () => {
    const r = await start({ list: sendJson(LIST), watch: watchLines([errorEvent(410)], true) });
    await r.run(MINUTE);
    expect(r.lists()).toBeGreaterThanOrEqual(4);
    expect(r.lists()).toBeLessThanOrEqual(PER_MINUTE);
    expectNamed(
      r,
      ['reconnecting', 'unreachable'],
      /keeps expiring the node watch \(410 Gone, \d+ times in a row\)/,
    );
    neverLiveAfterFailure(r.rec);
    await revives(r);
  });

  it('four and more HTTP 410s in a row do not kill the watcher: it keeps backing off and revives on retryNow', async () => {
    const r = await start({ list: sendJson(LIST), watch: sendJson(status(410, 'Expired'), 410) });
    await r.run(MINUTE);
    expect(r.watches()).toBeGreaterThan(4);
    expect(r.lists()).toBeLessThanOrEqual(PER_MINUTE);
    expectNamed(r, ['reconnecting', 'unreachable'], /410/);
    await revives(r);
    // And it goes on after that, still bounded.
    await r.run(MINUTE);
    expect(r.lists()).toBeLessThanOrEqual(2 * PER_MINUTE);
  });

  it('an event before every 410 does not make the relists free', async () => {
    const added = `${JSON.stringify({ type: 'ADDED', object: JSON.parse(LIST).items[0] })}\n`;
    const r = await start({ list: sendJson(LIST), watch: watchLines([added, errorEvent(410)], true) });
    await r.run(MINUTE);
    expect(r.lists()).toBeGreaterThanOrEqual(3);
    expect(r.lists()).toBeLessThanOrEqual(PER_MINUTE);
    await revives(r);
  });
});

describe('watch error policy: ERROR events of other codes', () => {
  it.each<[string, unknown, string, ConnectionPhase[], RegExp]>([
    [
      '500 InternalError',
      500,
      'InternalError',
      ['reconnecting', 'unreachable'],
      /failed while watching nodes/,
    ],
    [
      '429 TooManyRequests',
      429,
      'TooManyRequests',
      ['reconnecting', 'unreachable'],
      /The API server is busy/,
    ],
    ['403 Forbidden', 403, 'Forbidden', ['forbidden'], /Not allowed watching nodes/],
    ['a code that is not a number', 'boom', 'Weird', ['reconnecting', 'unreachable'], /watching nodes/],
  ])('%s: watches bounded, no relist, a named phase', async (_, code, reason, phases, message) => {
    const r = await start({ list: sendJson(LIST), watch: watchLines([errorEvent(code, reason)], true) });
    await r.run(MINUTE);
    expect(r.watches()).toBeGreaterThanOrEqual(3);
    expect(r.watches()).toBeLessThanOrEqual(PER_MINUTE);
    expect(r.lists()).toBe(1);
    expectNamed(r, phases, message);
    neverLiveAfterFailure(r.rec);
    await revives(r);
  });
});

describe('watch error policy: 5xx storms', () => {
  it('a LIST that always answers 503 is retried with backoff and goes unreachable', async () => {
    const r = await start({ list: sendJson(status(503, 'ServiceUnavailable'), 503) });
    await r.run(MINUTE);
    expect(r.lists()).toBeGreaterThanOrEqual(3);
    expect(r.lists()).toBeLessThanOrEqual(PER_MINUTE);
    expectNamed(r, ['unreachable'], /503/);
    expect(r.rec.phases).not.toContain('live');
    await revives(r);
  });

  it('a WATCH that always answers HTTP 500 is retried with backoff, keeping the list', async () => {
    const r = await start({ list: sendJson(LIST), watch: sendJson(status(500, 'InternalError'), 500) });
    await r.run(MINUTE);
    expect(r.watches()).toBeLessThanOrEqual(PER_MINUTE);
    expect(r.lists()).toBe(1);
    expect(r.rec.cache.view.size).toBe(20);
    expectNamed(r, ['unreachable'], /500/);
    await revives(r);
  });
});

describe('watch error policy: paging that never ends', () => {
  const page = (cont: string, items: unknown[] = []) =>
    JSON.stringify({
      kind: 'NodeList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '7', continue: cont },
      items,
    });

  it('the same continue token twice ends the list with a named error, retried with backoff', async () => {
    const r = await start({ list: sendJson(page('same-token')) });
    await r.run(MINUTE);
    expect(r.lists()).toBeLessThanOrEqual(2 * PER_MINUTE);
    expectNamed(r, ['reconnecting', 'unreachable'], /sent the same continue token twice while listing nodes/);
    expect(r.rec.count('replace')).toBe(0);
    await revives(r);
  });

  it(`a new continue token on every page ends after ${MAX_LIST_PAGES} pages`, async () => {
    let n = 0;
    const r = await start({ list: (res, req) => sendJson(page(`t${n++}`))(res, req) });
    await r.rec.waitFor(() => r.rec.states.some((s) => s.message !== null), 'the page cap', 60_000);
    w(r).stop();
    expect(r.lists()).toBe(MAX_LIST_PAGES);
    expectNamed(
      r,
      ['connecting', 'reconnecting', 'unreachable'],
      /kept paging the node list past 2000 pages/,
    );
  }, 90_000);

  it(`more than ${MAX_LIST_ITEMS} items end the list with a named error`, async () => {
    let n = 0;
    const items = Array.from({ length: 1000 }, () => ({}));
    const r = await start({ list: (res, req) => sendJson(page(`i${n++}`, items))(res, req) });
    await r.rec.waitFor(() => r.rec.states.some((s) => s.message !== null), 'the item cap', 30_000);
    expect(r.lists()).toBe(MAX_LIST_ITEMS / 1000 + 1);
    expectNamed(
      r,
      ['connecting', 'reconnecting', 'unreachable'],
      /listed more than 100000 nodes; stopped listing/,
    );
  });

  it('a list that outlasts the deadline (virtual time) ends with a named error', async () => {
    let n = 0;
    let clock: ManualClock | null = null;
    const r = await start({
      list: (res, req) => {
        // Every page "takes" 20 s of virtual time.
        clock?.advance(20_000);
        sendJson(page(`p${n++}`))(res, req);
      },
    });
    clock = r.clock;
    await r.rec.waitFor(() => r.rec.states.some((s) => s.message !== null), 'the list deadline');
    expectNamed(r, ['connecting', 'reconnecting', 'unreachable'], /took longer than 300 s; stopped/);
    expect(r.lists()).toBeLessThanOrEqual(20);
  });
});

describe('watch error policy: broken watch lines', () => {
  it('a line that never ends (past the line cap) is a protocol error, retried with backoff', async () => {
    const chunk = Buffer.alloc(1 << 20, 0x61);
    const endless: Answer = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      for (let i = 0; i <= MAX_WATCH_LINE_BYTES / chunk.length; i++) res.write(chunk);
    };
    const r = await start({ list: sendJson(LIST), watch: endless });
    await r.run(10_000);
    expect(r.watches()).toBeGreaterThanOrEqual(2);
    expect(r.watches()).toBeLessThanOrEqual(6);
    // The context was live: the failure shows once reconnecting has failed for RECONNECTING_AFTER_MS.
    await r.run(RECONNECTING_AFTER_MS);
    expectNamed(r, ['reconnecting', 'unreachable'], /sent a watch line that could not be read/);
  });

  it('bytes that never make a line do not keep a watch alive: the stall timer replaces it after a probe', async () => {
    const open: http.ServerResponse[] = [];
    const trickle: Answer = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.write('{"type":');
      open.push(res);
    };
    const r = await start({ list: sendJson(LIST), watch: trickle });
    // One more byte of the same unfinished line every virtual half second, for 100 s (stall: 90 s).
    await r.run(100_000, () => {
      for (const res of open) if (!res.writableEnded && !res.destroyed) res.write(' ');
    });
    expect(r.watches()).toBe(2);
    // The probe (a one-object list) answered: the server is there, so nothing is shown.
    expect(r.api.requests.filter((p) => p === '/api/v1/nodes?limit=1')).toHaveLength(1);
    expect(r.rec.phases).toEqual(['connecting', 'live']);
  });

  it('a server that closes in the middle of a line: a named error, not a silent clean end', async () => {
    const half = `${JSON.stringify({ type: 'ADDED', object: JSON.parse(LIST).items[0] })}`.slice(0, 100);
    const r = await start({ list: sendJson(LIST), watch: watchLines([half], true) });
    await r.run(MINUTE);
    expect(r.watches()).toBeLessThanOrEqual(PER_MINUTE);
    expectNamed(r, ['reconnecting', 'unreachable'], /ended the watch in the middle of an event/);
    await revives(r);
  });

  it('a watch that ends at once without a word is retried with backoff, not in a loop', async () => {
    const r = await start({ list: sendJson(LIST), watch: watchLines([], true) });
    await r.run(MINUTE);
    expect(r.watches()).toBeLessThanOrEqual(PER_MINUTE);
    expectNamed(r, ['reconnecting', 'unreachable'], /closed the watch at once/);
    neverLiveAfterFailure(r.rec);
  });

  it('after a failure, a reopened watch that stays quiet is shown live again after a while', async () => {
    let n = 0;
    const r = await start({
      list: sendJson(LIST),
      watch: (res, req) =>
        n++ === 0 ? sendJson(status(500, 'InternalError'), 500)(res, req) : watchLines([])(res, req),
    });
    // The retry opens at 0.6 s; an open alone does not prove much after a failure…
    await r.run(4000);
    expect(r.watches()).toBe(2);
    expect(r.rec.phase).toBe('connecting');
    // …but a watch that has held for LIVE_AFTER_MS (5 s) is live.
    await r.run(2000);
    expect(r.rec.phases).toEqual(['connecting', 'connecting', 'live']);
    expect(r.rec.states.at(-1)?.message).toBeNull();
  });

  it('a watch that stays silent is replaced by the stall timer on the virtual clock, without a word', async () => {
    const r = await start({ list: sendJson(LIST), watch: watchLines([]) });
    await r.run(89_000);
    expect(r.watches()).toBe(1);
    expect(r.rec.phase).toBe('live');
    await r.run(2_000);
    await settle(() => r.api.requests.length);
    expect(r.watches()).toBe(2);
    expect(r.lists()).toBe(2);
    expect(r.rec.phases).toEqual(['connecting', 'live']);
  });

  it('a silent watch whose probe is refused is a failure, shown once it has lasted RECONNECTING_AFTER_MS', async () => {
    let n = 0;
    const r = await start({
      list: (res, req) =>
        (n++ === 0 ? sendJson(LIST) : sendJson(status(503, 'ServiceUnavailable'), 503))(res, req),
      watch: (res, req) =>
        n <= 1 ? watchLines([])(res, req) : sendJson(status(503, 'ServiceUnavailable'), 503)(res, req),
    });
    await r.run(91_000);
    expect(r.rec.phases).toEqual(['connecting', 'live']);
    await r.run(RECONNECTING_AFTER_MS);
    expectNamed(r, ['reconnecting', 'unreachable'], /simulated ServiceUnavailable/);
  });
});

const w = (r: Run) => r.w;
