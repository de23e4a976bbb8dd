import { describe, expect, it } from 'vitest';
import {
  type LinkStatus,
  type ProbeResult,
  probeResult,
  RETRY_MAX_MS,
  retryDelay,
  StreamKeeper,
  type StreamSource,
} from './web-stream.ts';

/** An EventSource double: the test fires its events. */
class FakeSource implements StreamSource {
  readonly listeners = new Map<string, ((e: unknown) => void)[]>();
  closed = false;
  addEventListener(type: string, listener: (e: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
  }
  fire(type: string): void {
    for (const l of this.listeners.get(type) ?? []) l({});
  }
}

function rig(probes: ProbeResult[]) {
  let now = 1_000;
  const timers: { at: number; fn: () => void }[] = [];
  const sources: FakeSource[] = [];
  const statuses: LinkStatus[] = [];
  let backs = 0;
  const keeper = new StreamKeeper(
    {
      open: () => {
        const s = new FakeSource();
        sources.push(s);
        return s;
      },
      probe: () => Promise.resolve(probes.shift() ?? 'down'),
      setTimeout: (fn, ms) => timers.push({ at: now + ms, fn }),
      clearTimeout: () => undefined,
      now: () => now,
    },
    () => undefined,
    (s) => statuses.push(s),
    () => backs++,
  );
  /** Runs the next timer at its time, then lets the probe's promise settle. */
  const next = async () => {
    const t = timers.shift();
    if (!t) throw new Error('no timer');
    now = t.at;
    t.fn();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { keeper, sources, statuses, next, backs: () => backs, timers };
}

describe('retryDelay and probeResult', () => {
  it('doubles from 0.5 s and stops at the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 40].map(retryDelay)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });
  it('reads 401 as another token, 2xx as back, anything else as still down', () => {
    expect(probeResult(401)).toBe('token-changed');
    expect(probeResult(200)).toBe('ok');
    expect(probeResult(503)).toBe('down');
    expect(probeResult(null)).toBe('down');
  });
});

describe('StreamKeeper', () => {
  it('is down the moment the stream breaks, backs off, and is live again (onBack) once a probe passes', async () => {
    const r = rig(['down', 'down', 'ok']);
    r.keeper.start();
    r.sources[0]?.fire('open');
    expect(r.keeper.status.state).toBe('live');
    expect(r.backs()).toBe(0);
    r.sources[0]?.fire('error');
    expect(r.sources[0]?.closed).toBe(true);
    expect(r.keeper.status).toEqual({ state: 'down', since: 1_000, retryAt: 1_500 });
    await r.next();
    expect(r.keeper.status).toEqual({ state: 'down', since: 1_000, retryAt: 2_500 });
    await r.next();
    expect(r.keeper.status.retryAt).toBe(2_500 + 2_000);
    await r.next();
    expect(r.sources).toHaveLength(2);
    r.sources[1]?.fire('open');
    expect(r.keeper.status).toEqual({ state: 'live', since: null, retryAt: null });
    expect(r.backs()).toBe(1);
  });

  it('says the token changed on a 401 probe and keeps probing at the slowest pace', async () => {
    const r = rig(['token-changed', 'token-changed', 'ok']);
    r.keeper.start();
    r.sources[0]?.fire('open');
    r.sources[0]?.fire('error');
    await r.next();
    expect(r.keeper.status.state).toBe('token-changed');
    expect(r.timers[0]?.at).toBe(1_500 + RETRY_MAX_MS);
    await r.next();
    await r.next();
    r.sources[1]?.fire('open');
    expect(r.keeper.status.state).toBe('live');
  });

  it('ignores events of a stream it already closed, and opens nothing after stop', async () => {
    const r = rig(['ok']);
    r.keeper.start();
    r.sources[0]?.fire('error');
    r.sources[0]?.fire('open');
    expect(r.keeper.status.state).toBe('down');
    r.keeper.stop();
    await r.next();
    expect(r.sources).toHaveLength(1);
  });
});
