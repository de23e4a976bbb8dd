import { describe, expect, it } from 'vitest';
import { context, fleet, inventory, node } from '../renderer/fixtures/homelab.ts';
import type { FleetSnapshot } from './fleet.ts';
import { diffSnapshots } from './fleet-delta.ts';
import { FleetStream } from './fleet-stream.ts';
import type { FleetDeltaFrame, SyncedSnapshot } from './fleet-sync.ts';

/** Snapshot n of a little fleet: gpu-a is ready in even ones. */
const snap = (n: number): FleetSnapshot =>
  fleet([context('lab', inventory([node('gpu-a', { ready: n % 2 === 0 }), node(`gpu-${n}`)]))], 'lab');
const stamped = (n: number, epoch = 'e1'): SyncedSnapshot => ({ ...snap(n), epoch, seq: n });
const delta = (from: number, epoch = 'e1'): FleetDeltaFrame => ({
  ...diffSnapshots(snap(from), snap(from + 1)),
  epoch,
  from,
  to: from + 1,
});

/** A stream whose reads the test answers by hand. */
function harness() {
  const reads: ((s: SyncedSnapshot) => void)[] = [];
  const fails: ((e: unknown) => void)[] = [];
  const shown: FleetSnapshot[] = [];
  const errors: unknown[] = [];
  const stream = new FleetStream(
    () =>
      new Promise<SyncedSnapshot>((resolve, reject) => {
        reads.push(resolve);
        fails.push(reject);
      }),
    (s) => shown.push(s),
    (e) => errors.push(e),
  );
  const turn = () => new Promise((r) => setTimeout(r, 0));
  return { stream, reads, fails, shown, errors, turn };
}

describe('FleetStream', () => {
  it('applies deltas from its seq and shows each snapshot they make', () => {
    const { stream, shown } = harness();
    stream.take(stamped(1));
    stream.delta(delta(1));
    stream.delta(delta(2));
    expect(stream.mark).toEqual({ epoch: 'e1', seq: 3 });
    expect(shown.at(-1)).toEqual(snap(3));
    expect(stream.reads).toBe(0);
  });

  it('ignores deltas it already holds (an invoke answer came first) and older snapshots', () => {
    const { stream, shown } = harness();
    stream.take(stamped(3));
    stream.delta(delta(2));
    expect(stream.take(stamped(2))).toBe(false);
    expect(shown).toEqual([snap(3)]);
    expect(stream.reads).toBe(0);
  });

  it('on a gap reads one snapshot, holds what comes meanwhile, then applies only what is newer', async () => {
    const { stream, reads, shown, turn } = harness();
    stream.take(stamped(1));
    stream.delta(delta(3)); // 2 is missing
    stream.delta(delta(4));
    stream.delta(delta(5));
    await turn();
    expect(stream.reads).toBe(1);
    expect(reads).toHaveLength(1);
    reads[0]?.(stamped(4));
    await turn();
    expect(stream.mark).toEqual({ epoch: 'e1', seq: 6 });
    expect(shown.at(-1)).toEqual(snap(6));
    expect(stream.reads).toBe(1);
  });

  it('applies a delta that fits while a read is out (its snapshot stays as new as the pushes)', async () => {
    const { stream, reads, turn } = harness();
    stream.delta(delta(1, 'B'));
    await turn();
    expect(reads).toHaveLength(1);
    // The new host's whole snapshot, then its next delta, come before the answer.
    stream.take(stamped(1, 'B'));
    stream.delta(delta(1, 'B'));
    expect(stream.mark).toEqual({ epoch: 'B', seq: 2 });
    reads[0]?.(stamped(1, 'B'));
    await turn();
    expect(stream.mark).toEqual({ epoch: 'B', seq: 2 });
    expect(stream.reads).toBe(1);
  });

  it('never reads twice at once', async () => {
    const { stream, reads, turn } = harness();
    stream.delta(delta(7));
    stream.delta(delta(9));
    const first = stream.sync();
    await turn();
    expect(reads).toHaveLength(1);
    reads[0]?.(stamped(8));
    await first;
    await turn();
    // Delta 7 was old, delta 8→9 is missing, 9→10 then reads once more.
    expect(reads).toHaveLength(2);
  });

  it('resynchronises on another epoch (a restarted host) and on a delta that does not fit', async () => {
    const { stream, reads, shown, turn } = harness();
    stream.take(stamped(1));
    stream.delta(delta(1, 'e2'));
    await turn();
    reads[0]?.(stamped(1, 'e2'));
    await turn();
    expect(stream.mark).toEqual({ epoch: 'e2', seq: 2 });
    const bad: FleetDeltaFrame = {
      epoch: 'e2',
      from: 2,
      to: 3,
      contexts: { changed: [{ context: 'nowhere', stale: true }] },
    };
    stream.delta(bad);
    await turn();
    expect(reads).toHaveLength(2);
    reads[1]?.(stamped(3, 'e2'));
    await turn();
    expect(shown.at(-1)).toEqual(snap(3));
  });

  it('after a failed read tells once and waits for the next delta instead of looping', async () => {
    const { stream, fails, reads, errors, turn } = harness();
    stream.take(stamped(1));
    stream.delta(delta(2));
    await turn();
    fails[0]?.(new Error('host gone'));
    await turn();
    await turn();
    expect(errors).toHaveLength(1);
    expect(reads).toHaveLength(1);
    stream.delta(delta(3));
    await turn();
    expect(reads).toHaveLength(2);
  });
});

describe('FleetStream across an engine host restart', () => {
  it('drops the dead epoch’s held deltas when the new host’s snapshot comes, and reads once per gap', async () => {
    const t = harness();
    t.stream.take(stamped(10, 'A'));
    // A gap in A: a read goes out, and A's deltas arriving meanwhile are held.
    t.stream.delta(delta(12, 'A'));
    t.stream.delta(delta(13, 'A'));
    await t.turn();
    expect(t.reads).toHaveLength(1);
    // Host A dies: the read fails. Host B's first whole snapshot is pushed, and its deltas apply.
    t.fails[0]?.(new Error('The GPU Fleet engine stopped before it answered'));
    await t.turn();
    expect(t.stream.take(stamped(5, 'B'))).toBe(true);
    t.stream.delta(delta(5, 'B'));
    expect(t.stream.mark).toEqual({ epoch: 'B', seq: 6 });
    // A later gap in B (a dropped push): one read, answered, and then no more.
    t.stream.delta(delta(8, 'B'));
    await t.turn();
    expect(t.reads).toHaveLength(2);
    t.reads[1]?.(stamped(9, 'B'));
    for (let i = 0; i < 5; i++) await t.turn();
    expect(t.stream.mark).toEqual({ epoch: 'B', seq: 9 });
    expect(t.reads).toHaveLength(2);
  });

  it('drops a late delta of a dead host when the answer is not newer than what it holds (no endless read)', async () => {
    const t = harness();
    // The new host's snapshot came first (an invoke's answer overtook the dead host's last pushes).
    t.stream.take(stamped(1, 'B'));
    t.stream.delta(delta(4, 'A'));
    // The host has not moved: every answer is B:1, the place the stream already holds.
    for (let i = 0; i < 4; i++) {
      await t.turn();
      t.reads[i]?.(stamped(1, 'B'));
    }
    await t.turn();
    expect(t.stream.reads).toBe(1);
    expect(t.stream.mark).toEqual({ epoch: 'B', seq: 1 });
    t.stream.delta(delta(1, 'B'));
    expect(t.stream.mark).toEqual({ epoch: 'B', seq: 2 });
  });
});

describe('FleetStream and the mark of a new connection', () => {
  it('reads a whole snapshot when the stream is past what it holds, and not when it holds the place', async () => {
    const t = harness();
    t.stream.take(stamped(5));
    t.stream.markSeen({ epoch: 'e1', seq: 5 });
    t.stream.markSeen({ epoch: 'e1', seq: 4 });
    await t.turn();
    expect(t.reads).toHaveLength(0);
    // Its read was answered at 5 before the connection could hear delta 6: it reads again.
    t.stream.markSeen({ epoch: 'e1', seq: 6 });
    t.stream.markSeen({ epoch: 'e1', seq: 6 });
    await t.turn();
    expect(t.reads).toHaveLength(1);
    t.reads[0]?.(stamped(6));
    await t.turn();
    expect(t.stream.mark).toEqual({ epoch: 'e1', seq: 6 });
    t.stream.markSeen({ epoch: 'other', seq: 1 });
    await t.turn();
    expect(t.reads).toHaveLength(2);
  });

  it('ignores a mark of another shape', async () => {
    const t = harness();
    t.stream.take(stamped(5));
    for (const bad of [{ epoch: 'e1', seq: Number.NaN }, { epoch: '../x', seq: 9 }, null])
      t.stream.markSeen(bad as never);
    await t.turn();
    expect(t.reads).toHaveLength(0);
  });
});
