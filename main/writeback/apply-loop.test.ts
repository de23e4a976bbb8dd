import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { ApplyLoop, type ApplyTarget, type LoopOutcome } from './apply-loop.ts';
import { WriteError } from './write-error.ts';

/** A fake cluster object holding a number, counting reads and applies. */
interface Fake {
  held: number | null;
  reads: number;
  applies: number[];
  failWith: WriteError | null;
  target: ApplyTarget<number>;
}

function fakeTarget(initial: number | null): Fake {
  const t: Fake = {
    held: initial,
    reads: 0,
    applies: [],
    failWith: null,
    target: {
      read: async () => {
        t.reads++;
        if (t.failWith) throw t.failWith;
        return t.held;
      },
      apply: async (v: number) => {
        if (t.failWith) throw t.failWith;
        t.applies.push(v);
        t.held = v;
      },
      equal: (a: number, b: number | null) => a === b,
    },
  };
  return t;
}

const flush = () => new Promise((r) => setImmediate(r));

function setup(initial: number | null) {
  const clock = new ManualClock();
  const fake = fakeTarget(initial);
  const outcomes: LoopOutcome[] = [];
  let stateChanges = 0;
  const loop = new ApplyLoop(
    fake.target,
    { clock, minIntervalMs: 5000, random: () => 0 },
    (o) => outcomes.push(o),
    () => {
      stateChanges++;
    },
  );
  const step = async (ms: number) => {
    clock.advance(ms);
    await flush();
  };
  return { clock, fake, outcomes, loop, step, stateChanges: () => stateChanges };
}

describe('ApplyLoop', () => {
  it('reads the cluster first and skips a value it already holds (a restart makes no write)', async () => {
    const { fake, outcomes, loop, step } = setup(7);
    loop.want(7);
    await step(0);
    expect([fake.reads, fake.applies]).toEqual([1, []]);
    expect(outcomes.map((o) => [o.action, o.reason])).toEqual([['skipped', 'no change']]);
    expect(loop.state()).toMatchObject({ phase: 'idle', writes: 0, skipped: 1 });
  });

  it('writes a changed value once, then remembers it without reading again', async () => {
    const { fake, outcomes, loop, step } = setup(null);
    loop.want(1);
    await step(0);
    loop.want(2);
    await step(5000);
    expect([fake.reads, fake.applies]).toEqual([1, [1, 2]]);
    expect(outcomes.map((o) => [o.action, o.reason])).toEqual([
      ['written', 'created'],
      ['written', 'changed'],
    ]);
    expect(loop.state()).toMatchObject({
      writes: 2,
      lastWriteAt: new Date(Date.UTC(2026, 10, 29, 12, 0, 5)).toISOString(),
    });
  });

  it('coalesces a burst inside the window into one apply of the latest value', async () => {
    const { fake, loop, step } = setup(0);
    loop.want(1);
    await step(0);
    loop.want(2);
    loop.want(3);
    loop.want(4);
    await step(4999);
    expect(fake.applies).toEqual([1]);
    await step(1);
    expect(fake.applies).toEqual([1, 4]);
  });

  it('skips a flip and flip-back inside the window, and stays quiet with nothing to do', async () => {
    const { clock, fake, outcomes, loop, step } = setup(0);
    loop.want(1);
    await step(0);
    loop.want(2);
    loop.want(1);
    await step(60_000);
    expect(fake.applies).toEqual([1]);
    expect(outcomes.map((o) => o.action)).toEqual(['written', 'skipped']);
    expect(clock.pending).toBe(0);
  });

  it('turns a failure into a phase, re-reads and retries with backoff, and never throws', async () => {
    const { fake, outcomes, loop, step } = setup(0);
    fake.failWith = new WriteError('forbidden', 'The user "u" may not get gpuinventories.', 403);
    loop.want(1);
    await step(0);
    expect(loop.state()).toMatchObject({
      phase: 'forbidden',
      message: 'The user "u" may not get gpuinventories.',
    });
    expect(outcomes.at(-1)?.action).toBe('failed');
    // Backoff with random 0 and equal jitter: 2500 ms for the first retry (initial 5000).
    await step(2499);
    expect(fake.reads).toBe(1);
    await step(1);
    expect(fake.reads).toBe(2);
    fake.failWith = null;
    await step(5000);
    expect([fake.reads, fake.applies]).toEqual([3, [1]]);
    expect(loop.state()).toMatchObject({ phase: 'idle', message: null, writes: 1 });
  });

  it('a terminal failure (422) is a state, not a timer; only a changed value tries again', async () => {
    const { clock, fake, outcomes, loop, step } = setup(0);
    fake.failWith = new WriteError('invalid', 'The API server refused it (422): x is invalid', 422, true);
    loop.want(1);
    await step(0);
    expect(loop.state()).toMatchObject({
      phase: 'invalid',
      message: 'The API server refused it (422): x is invalid',
    });
    expect(clock.pending).toBe(0);
    await step(3_600_000);
    loop.want(1);
    await step(3_600_000);
    expect(fake.reads).toBe(1);
    expect(outcomes.map((o) => o.action)).toEqual(['failed']);
    fake.failWith = null;
    loop.want(2);
    await step(5000);
    expect([fake.reads, fake.applies]).toEqual([2, [2]]);
    expect(loop.state()).toMatchObject({ phase: 'idle', writes: 1 });
  });

  it('does nothing after stop()', async () => {
    const { clock, fake, loop, step } = setup(0);
    loop.want(1);
    loop.stop();
    await step(10_000);
    loop.want(2);
    await step(10_000);
    expect([fake.reads, fake.applies, clock.pending]).toEqual([0, [], 0]);
  });

  it('a write that fails after stop() arms no retry and reports nothing', async () => {
    const { clock, fake, outcomes, loop, step } = setup(0);
    let rejectApply: (e: unknown) => void = () => {};
    fake.target.apply = () =>
      new Promise<void>((_, reject) => {
        rejectApply = reject;
      });
    loop.want(1);
    await step(0);
    expect(loop.state().phase).toBe('writing');
    loop.stop();
    rejectApply(new WriteError('error', 'connection reset', null));
    await step(0);
    expect([clock.pending, outcomes.map((o) => o.action)]).toEqual([0, []]);
  });

  it('a listener that throws leaves a named state, not an unhandled rejection', async () => {
    const clock = new ManualClock();
    const fake = fakeTarget(0);
    fake.failWith = new WriteError('forbidden', 'The user "u" may not patch gpuinventories.', 403);
    const loop = new ApplyLoop(
      fake.target,
      { clock, minIntervalMs: 5000, random: () => 0 },
      () => {
        throw new Error('listener broke');
      },
      () => undefined,
    );
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      loop.want(1);
      clock.advance(0);
      await flush();
      await flush();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    expect(loop.state()).toMatchObject({
      phase: 'error',
      message: expect.stringContaining('listener broke'),
    });
  });

  it('a wider window asked by want() holds the next write back that long (the controller at scale)', async () => {
    const { fake, loop, step } = setup(null);
    loop.want(1, 30_000);
    await step(0);
    loop.want(2, 30_000);
    await step(5000);
    await step(20_000);
    expect(fake.applies).toEqual([1]);
    await step(5000);
    expect(fake.applies).toEqual([1, 2]);
  });
});
