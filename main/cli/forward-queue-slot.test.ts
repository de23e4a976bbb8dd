/**
 * Two `gpu-fleet watch --forward` processes on one config folder: each keeps its own queue file, so the
 * messages both leave undelivered survive (none lost to the other's write) and, after a restart, each
 * is delivered once (no file is read by two live processes). Real lock files, the real forwarder and
 * its file store against the fake ntfy; the processes are played by pids.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { NtfyFake } from '../../test/fakes/ntfy-fake.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { at, play } from '../alerts/scenario.testkit.ts';
import { target } from '../forward/forward.testkit.ts';
import { Forwarder } from '../forward/forwarder.ts';
import { FilePendingStore } from '../forward/pending-store.ts';
import { CLI_PENDING_FILE, CLI_QUEUE_SLOTS, claimCliQueue } from './forward-queue-slot.ts';

const TOKEN = 'tk_abcdefghijklmnopqrstuvwxyz012';
const ALL = { nuc1: true, nuc2: true, omen: true };
let dir: string;
let clock: ManualClock;
let ntfy: NtfyFake;
const running: Forwarder[] = [];

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-slots-'));
  clock = new ManualClock(at(0));
  ntfy = await NtfyFake.start({
    now: () => clock.now(),
    users: [{ name: 'rig', password: 'pw', token: TOKEN, topics: 'gpu-*' }],
  });
});
afterEach(async () => {
  for (const f of running.splice(0)) f.stop();
  await ntfy.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A `watch` process `pid` of this host; `live` says which pids still run. */
const watch = (pid: number, live: Set<number>) => {
  const slot = claimCliQueue(dir, { pid, alive: (p) => live.has(p) });
  const f = new Forwarder([target('ntfy-1', 'ntfy', `${ntfy.url}/gpu-alerts`, { token: TOKEN })], {
    clock,
    random: () => 0.5,
    store: new FilePendingStore(slot.file),
  });
  running.push(f);
  return { slot, f };
};

const drop = (context: string) => {
  const alert = play([
    [0, context, ALL],
    [10, context, { ...ALL, omen: false }],
  ]).alerts[0];
  if (!alert) throw new Error('no alert');
  return alert;
};

it('gives each watch its own queue file; a restart delivers what each left, once', async () => {
  const live = new Set([101, 102]);
  const port = Number(new URL(ntfy.url).port);
  await ntfy.stop();
  const a = watch(101, live);
  const b = watch(102, live);
  expect([a.slot.file, b.slot.file]).toEqual([
    path.join(dir, CLI_PENDING_FILE),
    path.join(dir, 'forward-queue-cli-1.json'),
  ]);
  a.f.forward(drop('lab-a'));
  b.f.forward(drop('lab-b'));
  await pollUntil(
    () => [a, b].every((w) => w.f.status()[0]?.problem?.includes('connection refused') === true),
    'both refused',
  );
  await a.f.settled();
  await b.f.settled();
  a.f.stop();
  b.f.stop();
  // Both crashed (no release): their locks stay, naming pids that are gone.
  live.clear();

  ntfy = await NtfyFake.start({
    now: () => clock.now(),
    port,
    users: [{ name: 'rig', password: 'pw', token: TOKEN, topics: 'gpu-*' }],
  });
  live.add(201).add(202);
  const c = watch(201, live);
  const d = watch(202, live);
  expect([c.slot.slot, d.slot.slot]).toEqual([0, 1]);
  await pollUntil(() => ntfy.messages().length >= 2, 'both left messages');
  await c.f.settled();
  await d.f.settled();
  expect(
    ntfy
      .messages()
      .map((m) => m.title)
      .sort(),
  ).toEqual(['lab-a: 1 GPU node down', 'lab-b: 1 GPU node down']);
});

it('a live watch keeps its slot; a released one is free again; all slots taken is one sentence', () => {
  const live = new Set<number>();
  const held = Array.from({ length: CLI_QUEUE_SLOTS }, (_, i) => {
    live.add(300 + i);
    return claimCliQueue(dir, { pid: 300 + i, alive: (p) => live.has(p) });
  });
  expect(held.map((s) => s.slot)).toEqual([...Array(CLI_QUEUE_SLOTS).keys()]);
  live.add(400);
  expect(() => claimCliQueue(dir, { pid: 400, alive: (p) => live.has(p) })).toThrow(
    `${CLI_QUEUE_SLOTS} gpu-fleet watch processes already forward from ${dir}`,
  );
  held[3]?.release();
  expect(claimCliQueue(dir, { pid: 400, alive: (p) => live.has(p) }).slot).toBe(3);
  // The app's own lock (SingletonLock) is another file: a queue slot never takes it.
  expect(fs.existsSync(path.join(dir, 'SingletonLock'))).toBe(false);
});
