import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../common/connection.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { ConnectionTracker } from './connection-tracker.ts';
import { KubeError } from './errors.ts';

function setup(
  thresholds = { unreachableAfterAttempts: 3, unreachableAfterMs: 30_000, reconnectingAfterMs: 0 },
) {
  const clock = new ManualClock(0);
  const seen: ConnectionState[] = [];
  const t = new ConnectionTracker(clock, (s) => seen.push(s), thresholds);
  return { clock, seen, t };
}
const refused = new KubeError('unreachable', 'refused');

describe('ConnectionTracker', () => {
  it('never live: connecting, then unreachable on the third failure', () => {
    const { t, seen } = setup();
    t.failed(refused, 800);
    t.failed(refused, 1600);
    t.failed(refused, 3200);
    expect(seen.map((s) => [s.phase, s.attempt])).toEqual([
      ['connecting', 1],
      ['connecting', 2],
      ['unreachable', 3],
    ]);
    expect(seen[0]?.retryAt).toBe(new Date(800).toISOString());
    expect(seen[2]?.message).toBe('refused');
  });

  it('was live: reconnecting, then unreachable after the time limit even with few attempts', () => {
    const { t, seen, clock } = setup({
      unreachableAfterAttempts: 10,
      unreachableAfterMs: 5000,
      reconnectingAfterMs: 0,
    });
    t.live();
    clock.advance(1000);
    t.failed(refused, 100);
    clock.advance(5000);
    t.failed(refused, 100);
    expect(seen.map((s) => s.phase)).toEqual(['live', 'reconnecting', 'unreachable']);
    expect(seen[2]?.lastLiveAt).toBe(new Date(0).toISOString());
    expect(seen[2]?.since).toBe(new Date(6000).toISOString());
  });

  describe('a live context keeps quiet while reconnecting fails for less than reconnectingAfterMs', () => {
    const quiet = { unreachableAfterAttempts: 3, unreachableAfterMs: 30_000, reconnectingAfterMs: 20_000 };

    it('a failure repaired inside the quiet time emits nothing', () => {
      const { t, seen, clock } = setup(quiet);
      t.live();
      clock.advance(1000);
      t.failed(refused, 800);
      clock.advance(800);
      t.failed(refused, 1600);
      clock.advance(19_000);
      t.live();
      clock.advance(60_000);
      expect(seen.map((s) => s.phase)).toEqual(['live']);
      expect(t.state.phase).toBe('live');
    });

    it('a failure that lasts is shown when the quiet time ends, with its attempts and phase then', () => {
      const { t, seen, clock } = setup(quiet);
      t.live();
      t.failed(refused, 800);
      clock.advance(19_999);
      expect(seen.map((s) => s.phase)).toEqual(['live']);
      clock.advance(1);
      expect(seen.map((s) => [s.phase, s.attempt])).toEqual([
        ['live', 0],
        ['reconnecting', 1],
      ]);
      expect(seen[1]?.since).toBe(new Date(20_000).toISOString());
      // Two more failures: the third in a row is unreachable, as for a context that never was live.
      t.failed(refused, 800);
      t.failed(refused, 800);
      expect(t.state.phase).toBe('unreachable');
    });

    it('many failures inside the quiet time: the phase shown is the one they add up to', () => {
      const { t, seen, clock } = setup(quiet);
      t.live();
      for (let i = 0; i < 4; i++) {
        t.failed(refused, 100);
        clock.advance(1000);
      }
      clock.advance(16_000);
      expect(seen.map((s) => [s.phase, s.attempt])).toEqual([
        ['live', 0],
        ['unreachable', 4],
      ]);
    });

    it('credentials and permission failures are not held', () => {
      const { t } = setup(quiet);
      t.live();
      t.failed(new KubeError('unauthorized', 'x'), null);
      expect(t.state.phase).toBe('unauthorized');
    });

    it('dispose() cancels a held failure', () => {
      const { t, seen, clock } = setup(quiet);
      t.live();
      t.failed(refused, 100);
      t.dispose();
      clock.advance(60_000);
      expect(seen.map((s) => s.phase)).toEqual(['live']);
    });
  });

  it.each([
    ['unauthorized', 'unauthorized'],
    ['forbidden', 'forbidden'],
    ['tls', 'config-error'],
    ['exec-plugin', 'config-error'],
  ] as const)('%s shows %s at once', (kind, phase) => {
    const { t } = setup();
    t.failed(new KubeError(kind, 'x'), null);
    expect(t.state.phase).toBe(phase);
    expect(t.state.retryAt).toBeNull();
  });

  it('going live resets the count and does not repeat identical states', () => {
    const { t, seen } = setup();
    t.failed(refused, 10);
    t.live();
    t.live();
    expect(seen.map((s) => [s.phase, s.attempt])).toEqual([
      ['connecting', 1],
      ['live', 0],
    ]);
  });

  it('passes the sentence’s catalog key on to the state, and drops it when the next failure has none', () => {
    const states: ConnectionState[] = [];
    const t = new ConnectionTracker(new ManualClock(0), (s) => states.push(s));
    const words = { key: 'kubeError.refused' as const, vars: { host: 'h:6443' } };
    t.failed(new KubeError('unreachable', words), 100);
    expect(t.state.words).toEqual(words);
    expect(t.state.message).toBe('h:6443 refused the connection; the API server may be down.');
    t.failed(new KubeError('unreachable', 'plain words'), 100);
    expect(t.state.words).toBeUndefined();
    t.live();
    expect(t.state.words).toBeUndefined();
  });
});
