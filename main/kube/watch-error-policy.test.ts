// The watcher's one error policy, on its own: 410 streaks, free relists, backoff, Retry-After, config errors.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { Backoff } from './backoff.ts';
import { KubeError } from './errors.ts';
import { MAX_RETRY_AFTER_MS, RELIST_FREE_INTERVAL_MS, WatchErrorPolicy } from './watch-error-policy.ts';

const gone = () => new KubeError('expired', 'The resource version expired while watching nodes (410).');
const cut = () => new KubeError('unreachable', 'The watch connection to h was cut off.');

function policy() {
  const clock = new ManualClock();
  const backoff = new Backoff(clock, { jitter: 'none' });
  return { clock, backoff, p: new WatchErrorPolicy(backoff, clock) };
}

describe('WatchErrorPolicy', () => {
  it('410s without progress back off even when they come slower than the free-relist interval', () => {
    const { p, clock } = policy();
    expect(p.decide(gone())).toEqual({ next: 'relist', delayMs: 0, report: null });
    clock.advance(RELIST_FREE_INTERVAL_MS * 3);
    const d = p.decide(gone());
    expect(d).toMatchObject({ next: 'relist', report: { status: 410 } });
    expect(d.next === 'relist' && d.delayMs).toBeGreaterThan(0);
  });

  it('relists at once on a first 410, then backs off while 410s keep coming without progress', () => {
    const { p } = policy();
    expect(p.decide(gone())).toEqual({ next: 'relist', delayMs: 0, report: null });
    expect(p.troubled).toBe(false);
    const delays: number[] = [];
    for (let i = 2; i <= 6; i++) {
      const d = p.decide(gone());
      expect(d.next).toBe('relist');
      if (d.next !== 'relist') continue;
      delays.push(d.delayMs);
      expect(d.report?.message).toBe(
        `The API server keeps expiring the node watch (410 Gone, ${i} times in a row); listing again.`,
      );
      expect(d.report?.transient).toBe(true);
    }
    expect(delays).toEqual([800, 1600, 3200, 6400, 12_800]);
    expect(p.troubled).toBe(true);
    expect(p.expiredInARow).toBe(6);
  });

  it('a real event or bookmark ends the streak; the next 410 is free again once the last free one is old', () => {
    const { p, clock } = policy();
    p.decide(gone());
    p.decide(gone());
    p.progress();
    expect(p.expiredInARow).toBe(0);
    expect(p.troubled).toBe(false);
    clock.advance(RELIST_FREE_INTERVAL_MS);
    expect(p.decide(gone())).toEqual({ next: 'relist', delayMs: 0, report: null });
  });

  it('an event before every 410 does not make relists free: one free relist per interval', () => {
    const { p, clock } = policy();
    expect(p.decide(gone())).toEqual({ next: 'relist', delayMs: 0, report: null });
    p.progress();
    clock.advance(RELIST_FREE_INTERVAL_MS - 1);
    const d = p.decide(gone());
    expect(d).toMatchObject({
      next: 'relist',
      report: { message: expect.stringMatching(/soon after a relist/) },
    });
    expect(d.next === 'relist' && d.delayMs).toBeGreaterThan(0);
  });

  it('other failures retry with the backoff, keeping the resourceVersion, and mark trouble', () => {
    const { p } = policy();
    expect(p.decide(cut())).toMatchObject({ next: 'retry', delayMs: 800 });
    expect(p.decide(cut())).toMatchObject({ next: 'retry', delayMs: 1600 });
    expect(p.troubled).toBe(true);
  });

  it('believes Retry-After, up to a cap', () => {
    const { p } = policy();
    const busy = (ms: number) => new KubeError('throttled', 'The API server is busy.', { retryAfterMs: ms });
    expect(p.decide(busy(7000))).toMatchObject({ delayMs: 7000 });
    expect(p.decide(busy(365 * 86_400_000))).toMatchObject({ delayMs: MAX_RETRY_AFTER_MS });
  });

  it('configuration errors wait for the user', () => {
    const { p } = policy();
    const bad = new KubeError('tls', 'The certificate of h is not signed by the kubeconfig CA.');
    expect(p.decide(bad)).toEqual({ next: 'wait-for-user', report: bad });
  });

  it('reset() starts over: backoff, streak and the free relist', () => {
    const { p } = policy();
    p.decide(gone());
    p.decide(gone());
    p.decide(cut());
    p.reset();
    expect(p.troubled).toBe(false);
    expect(p.decide(gone())).toEqual({ next: 'relist', delayMs: 0, report: null });
    expect(p.decide(cut())).toMatchObject({ delayMs: 800 });
  });
});
