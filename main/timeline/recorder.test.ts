import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../common/connection.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { openReader, openWriter, TIMELINE_FILE } from './open.ts';
import { FLUSH_MS, HEARTBEAT_MS, NOT_RUNNING } from './recorder.ts';
import { inventory, node, notReady, recorder, tempDir } from './timeline.testkit.ts';

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});
function folder(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}
const HOUR = 3_600_000;
const conn = (
  phase: ConnectionState['phase'],
  since: number,
  message: string | null = null,
): ConnectionState => ({
  phase,
  message,
  since: new Date(since).toISOString(),
  lastLiveAt: null,
  attempt: 0,
  retryAt: null,
});

describe('TimelineRecorder', () => {
  it('writes a readiness episode in batches after the hot path, and reads it back with the ready-node line', () => {
    const dir = folder();
    const { rec, clock } = recorder(dir);
    cleanups.push(() => rec.stop());
    const t0 = clock.now();
    rec.inventory('lab', inventory([node({ name: 'nuc1' }), node({ name: 'nuc2' })]));
    clock.advance(60_000);
    rec.inventory('lab', inventory([notReady('nuc1'), node({ name: 'nuc2' })]));
    // Nothing is written on the hot path: only the flush task writes.
    const reader = openReader(dir);
    if (!reader.ok) throw new Error(reader.message);
    const written = () => reader.db.prepare('SELECT count(*) AS n FROM counts').get();
    expect(written()).toEqual({ n: 1 });
    clock.advance(FLUSH_MS);
    expect(written()).toEqual({ n: 2 });
    reader.db.close();
    clock.advance(17 * 60_000);
    rec.inventory('lab', inventory([node({ name: 'nuc1' }), node({ name: 'nuc2' })]));
    clock.advance(FLUSH_MS);
    const view = rec.read({ context: 'lab', from: t0, to: clock.now() + 1 });
    expect(view.status).toEqual({ state: 'recording' });
    expect(view.episodes).toMatchObject([
      {
        kind: 'not-ready',
        node: 'nuc1',
        from: t0 + 60_000,
        to: t0 + 60_000 + FLUSH_MS + 17 * 60_000,
        state: 'Unknown',
      },
    ]);
    expect(view.counts.map((p) => p.ready)).toEqual([2, 1, 2]);
  });

  it('goes on after a restart mid-episode: the open episode closes at the change after the restart', () => {
    const dir = folder();
    const clock = new ManualClock();
    const t0 = clock.now();
    const first = recorder(dir, clock);
    first.rec.inventory('lab', inventory([node({ name: 'nuc1' })]));
    clock.advance(FLUSH_MS);
    first.rec.inventory('lab', inventory([notReady('nuc1')]));
    clock.advance(FLUSH_MS);
    first.rec.stop(); // the engine host exits (or is killed after its last flush)

    clock.advance(10 * 60_000);
    const second = recorder(dir, clock);
    cleanups.push(() => second.rec.stop());
    // The new host's first inventory still has nuc1 down: no new episode, no "appeared" change.
    second.rec.inventory('lab', inventory([notReady('nuc1')]));
    clock.advance(5 * 60_000);
    second.rec.inventory('lab', inventory([node({ name: 'nuc1' })]));
    clock.advance(FLUSH_MS);
    const view = second.rec.read({ context: 'lab', from: t0, to: clock.now() + 1 });
    expect(view.episodes.map((e) => [e.node, e.from - t0, e.to === null ? null : e.to - t0])).toEqual([
      ['nuc1', FLUSH_MS, 2 * FLUSH_MS + 15 * 60_000],
    ]);
    // The time the host was away is a span of its own.
    expect(view.spans).toMatchObject([{ kind: 'not-recording', message: NOT_RUNNING }]);
  });

  it('closes an episode whose node came back while the host was away, at the first inventory after the restart', () => {
    const dir = folder();
    const clock = new ManualClock();
    const t0 = clock.now();
    const first = recorder(dir, clock);
    first.rec.inventory('lab', inventory([node({ name: 'nuc1' }), node({ name: 'nuc2' })]));
    clock.advance(FLUSH_MS);
    first.rec.inventory('lab', inventory([notReady('nuc1'), node({ name: 'nuc2' })]));
    clock.advance(FLUSH_MS);
    first.rec.stop();
    clock.advance(30 * 60_000);
    const second = recorder(dir, clock);
    cleanups.push(() => second.rec.stop());
    second.rec.inventory('lab', inventory([node({ name: 'nuc1' }), node({ name: 'nuc2' })]));
    clock.advance(FLUSH_MS);
    const view = second.rec.read({ context: 'lab', from: t0, to: clock.now() + 1 });
    expect(view.episodes.map((e) => [e.node, e.to === null ? null : e.to - t0])).toEqual([
      ['nuc1', 2 * FLUSH_MS + 30 * 60_000],
    ]);
  });

  it('records an unreachable span from the phase start to live, and alerts with their deliveries', () => {
    const dir = folder();
    const { rec, clock } = recorder(dir);
    cleanups.push(() => rec.stop());
    const t0 = clock.now();
    rec.connection('lab', conn('unreachable', t0 - 30_000, 'connect ECONNREFUSED'));
    rec.alert({
      id: 'u1',
      at: new Date(t0).toISOString(),
      context: 'lab',
      kind: 'unreachable',
      nodes: [],
      title: 'lab unreachable',
      body: 'b',
    });
    rec.recordDelivery('u1', { at: t0 + 5, channel: 'ntfy', ok: false, message: '503 Service Unavailable' });
    clock.advance(4 * 60_000);
    rec.connection('lab', conn('live', clock.now()));
    clock.advance(FLUSH_MS);
    const view = rec.read({ context: 'lab', from: t0 - HOUR, to: clock.now() + 1 });
    expect(view.spans).toEqual([
      { kind: 'unreachable', from: t0 - 30_000, to: t0 + 4 * 60_000, message: 'connect ECONNREFUSED' },
    ]);
    expect(view.episodes).toMatchObject([{ kind: 'unreachable', node: null, alerts: 1 }]);
    expect(view.alerts).toMatchObject([
      { id: 'u1', deliveries: [{ channel: 'ntfy', ok: false, message: '503 Service Unavailable' }] },
    ]);
  });

  it('keeps Kubernetes events past their expiry, deduplicated by uid with the highest count', () => {
    const dir = folder();
    const { rec, clock } = recorder(dir);
    cleanups.push(() => rec.stop());
    const t0 = clock.now();
    const ev = (count: number, last: number) => ({
      uid: 'e-1',
      node: 'nuc1',
      type: 'Warning',
      reason: 'NodeNotReady',
      message: 'Node nuc1 status is now: NodeNotReady',
      count,
      first: t0,
      last,
    });
    rec.events('lab', [ev(1, t0)]);
    clock.advance(FLUSH_MS);
    rec.events('lab', [ev(3, t0 + 120_000), ev(2, t0 + 60_000)]);
    clock.advance(2 * HOUR);
    expect(rec.read({ context: 'lab', from: t0 - 1, to: clock.now() }).events).toMatchObject([
      { count: 3, last: t0 + 120_000 },
    ]);
  });

  it('samples telemetry once a minute per GPU and integrates energy per node', () => {
    const dir = folder();
    const { rec, clock } = recorder(dir);
    cleanups.push(() => rec.stop());
    const t0 = Math.floor(clock.now() / 900_000) * 900_000 + 900_000;
    clock.advance(t0 - clock.now());
    const gpu = (index: number, power: number) => ({
      index,
      uuid: null,
      model: null,
      util: 50,
      temp: 60,
      power,
      fbUsed: 1000,
      fbFree: 1000,
      xid: null,
      xidCounts: null,
    });
    for (let m = 0; m <= 10; m++) {
      rec.telemetry({ context: 'lab', node: 'nuc1', at: clock.now(), gpus: [gpu(0, 100), gpu(1, 200)] });
      clock.advance(30_000); // two readings a minute: one sample per minute is kept
      rec.telemetry({ context: 'lab', node: 'nuc1', at: clock.now(), gpus: [gpu(0, 100), gpu(1, 200)] });
      clock.advance(30_000);
    }
    clock.advance(FLUSH_MS);
    const view = rec.read({ context: 'lab', from: t0, to: t0 + HOUR });
    // 10.5 minutes of 300 W on the node.
    expect(view.energy.kwh).toBeCloseTo((300 * 10.5) / 60 / 1000, 6);
    expect(view.telemetry[0]).toMatchObject({
      node: 'nuc1',
      gpus: 2,
      util: { avg: 50 },
      power: { avg: 300 },
    });
    const db = new DatabaseSync(path.join(dir, TIMELINE_FILE), { readOnly: true });
    expect(db.prepare('SELECT count(*) AS n FROM samples').get()).toEqual({ n: 22 });
    db.close();
  });
});

describe('TimelineRecorder faults', () => {
  it('moves a damaged file aside with a notice and starts a fresh timeline', () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, TIMELINE_FILE), 'not a database '.repeat(500));
    const { rec, clock, notices } = recorder(dir);
    cleanups.push(() => rec.stop());
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^The timeline file was damaged; it was moved aside as timeline-damaged-.*\.db and a new timeline was started\.$/,
    );
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('timeline-damaged-'))).toHaveLength(1);
    rec.inventory('lab', inventory([node({ name: 'a' })]));
    clock.advance(FLUSH_MS);
    expect(rec.status).toEqual({ state: 'recording' });
    expect(rec.read({ context: 'lab', from: 0, to: clock.now() + 1 }).counts).toHaveLength(1);
  });

  it('says "not recording: the disk is full", keeps what came meanwhile, and resumes by itself', () => {
    const dir = folder();
    let full = false;
    let live: DatabaseSync | null = null;
    // SQLite's own page cap at the file's size stands in for a full disk: a write that needs one more
    // page fails with SQLITE_FULL, on the open connection and on every reopen while `full` holds.
    const fill = (db: DatabaseSync) => {
      const { page_count } = db.prepare('PRAGMA page_count').get() as { page_count: number };
      db.exec(`PRAGMA max_page_count = ${page_count}`);
    };
    const { rec, clock, statuses } = recorder(dir, new ManualClock(), {
      open: (d, o) => {
        const r = openWriter(d, o);
        if (r.ok) {
          live = r.handle.db;
          if (full) fill(live);
        }
        return r;
      },
    });
    cleanups.push(() => rec.stop());
    const t0 = clock.now();
    rec.inventory('lab', inventory([node({ name: 'a' }), node({ name: 'b' })]));
    clock.advance(FLUSH_MS);
    full = true;
    if (live) fill(live);
    // The next write fails; a reopen (the retry) meets the cap too.
    const blob = Array.from({ length: 3000 }, (_, i) =>
      node({ name: `n${i}`, not_ready_message: 'x'.repeat(100) }),
    );
    rec.inventory('lab', inventory(blob));
    clock.advance(FLUSH_MS);
    expect(rec.status).toMatchObject({ state: 'not-recording', reason: 'the disk is full' });
    rec.inventory('lab', inventory([notReady('a'), node({ name: 'b' })]));
    clock.advance(60_000);
    expect(rec.status.state).toBe('not-recording');
    full = false;
    clock.advance(5 * 60_000);
    expect(rec.status).toEqual({ state: 'recording' });
    expect(statuses).toEqual(['recording', 'not-recording: the disk is full', 'recording']);
    const view = rec.read({ context: 'lab', from: t0, to: clock.now() + 1 });
    expect(view.spans).toMatchObject([{ kind: 'not-recording', message: 'the disk is full' }]);
    expect(view.changes.some((c) => c.node === 'a' && c.to === 'Unknown')).toBe(true);
  });

  it('says "not recording: the data folder is read-only" and resumes when it can write again', () => {
    const dir = folder();
    let readOnly = true;
    // Created writable once, then opened read-only: every write meets SQLite's own refusal.
    const made = openWriter(dir, { now: 0 });
    if (made.ok) {
      made.handle.db.close();
      made.handle.lock.close();
    }
    const { rec, clock } = recorder(dir, new ManualClock(), {
      open: (d, o) => openWriter(d, { ...o, readOnlyFile: readOnly }),
    });
    cleanups.push(() => rec.stop());
    rec.inventory('lab', inventory([node({ name: 'a' })]));
    clock.advance(FLUSH_MS);
    expect(rec.status).toMatchObject({ state: 'not-recording', reason: 'the data folder is read-only' });
    readOnly = false;
    clock.advance(HEARTBEAT_MS);
    expect(rec.status).toEqual({ state: 'recording' });
    expect(rec.read({ context: 'lab', from: 0, to: clock.now() + 1 }).counts).toHaveLength(1);
  });

  it('refuses a second writer with one sentence; that one still reads the timeline', () => {
    const dir = folder();
    const a = recorder(dir);
    cleanups.push(() => a.rec.stop());
    a.rec.inventory('lab', inventory([node({ name: 'a' })]));
    a.clock.advance(FLUSH_MS);
    const b = recorder(dir, a.clock);
    cleanups.push(() => b.rec.stop());
    expect(b.rec.status).toEqual({
      state: 'read-only',
      reason: 'Another GPU Fleet process is recording the timeline; this one shows it but does not write it.',
    });
    expect(b.rec.read({ context: 'lab', from: 0, to: a.clock.now() + 1 }).counts).toHaveLength(1);
    // A read-only reader beside the writer sees every committed batch.
    a.rec.inventory('lab', inventory([notReady('a')]));
    a.clock.advance(FLUSH_MS);
    const r = openReader(dir);
    if (!r.ok) throw new Error(r.message);
    expect(r.db.prepare('SELECT count(*) AS n FROM changes').get()).toEqual({ n: 1 });
    r.db.close();
  });
  it('tries a database it cannot open again after 10 s, doubling to 5 min (the one backoff formula)', () => {
    const clock = new ManualClock();
    const t0 = clock.now();
    const tries: number[] = [];
    const { rec } = recorder(folder(), clock, {
      open: () => {
        tries.push((clock.now() - t0) / 1000);
        return { ok: false, fault: { kind: 'io', reason: 'the disk did not answer' } };
      },
    });
    cleanups.push(() => rec.stop());
    clock.advance(21 * 60_000);
    expect(tries).toEqual([0, 10, 30, 70, 150, 310, 610, 910, 1210]);
  });
});
