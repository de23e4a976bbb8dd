/** The source decision, pure: freshness at 2 × the Lease duration, the first pick, hysteresis, the controller-only state. */
import { describe, expect, it } from 'vitest';
import {
  DECIDE_WITHIN_MS,
  decide,
  HANDOVER_MS,
  INITIAL_POLICY,
  type LeaseView,
  MIN_NODES_MS,
  type PolicyInput,
  type PolicyState,
  RETURN_FRESH_MS,
} from './source-policy.ts';

const T0 = Date.UTC(2026, 10, 29, 12);
const lease = (renewedAt: number | null, over: Partial<LeaseView> = {}): LeaseView => ({
  seen: { kind: 'present' },
  holder: 'pod-a',
  durationSeconds: 15,
  renewedAt,
  freshAt: renewedAt,
  releasedAt: null,
  ...over,
});
const input = (now: number, l: LeaseView, over: Partial<PolicyInput> = {}): PolicyInput => ({
  setting: 'auto',
  now,
  startedAt: T0,
  namespace: 'gpu-fleet',
  group: 'gpufleet.io',
  lease: l,
  inventory: { seen: { kind: 'present' }, problem: null },
  ...over,
});

describe('source policy', () => {
  it('picks a fresh controller at once, and falls back exactly when the Lease is 2 × its duration old', () => {
    const first = decide(INITIAL_POLICY, input(T0, lease(T0)));
    expect(first.state.active).toBe('controller');
    expect(first.nextCheckAt).toBe(T0 + 30_000);
    const before = decide(first.state, input(T0 + 29_999, lease(T0)));
    expect(before.state.active).toBe('controller');
    const after = decide(before.state, input(T0 + 30_000, lease(T0)));
    expect(after.state.active).toBe('nodes');
    expect(after.message).toBe(
      'The in-cluster controller stopped renewing its Lease (last renewed 30 s ago, more than 2 × 15 s); watching nodes directly.',
    );
  });

  it('waits for the first answers, but not past DECIDE_WITHIN_MS', () => {
    const pending = lease(null, { seen: { kind: 'pending' } });
    const wait = decide(INITIAL_POLICY, input(T0 + 1000, pending));
    expect(wait.state.active).toBeNull();
    expect(wait.nextCheckAt).toBe(T0 + DECIDE_WITHIN_MS);
    const late = decide(wait.state, input(T0 + DECIDE_WITHIN_MS, pending));
    expect(late.state.active).toBe('nodes');
    // A missing Lease needs no wait for the GpuInventory.
    const missing = decide(
      INITIAL_POLICY,
      input(T0, lease(null, { seen: { kind: 'missing' } }), {
        inventory: { seen: { kind: 'pending' }, problem: null },
      }),
    );
    expect(missing.state.active).toBe('nodes');
    expect(missing.message).toBe(
      'No in-cluster controller was found (no Lease gpu-fleet-controller in namespace gpu-fleet); watching nodes directly.',
    );
  });

  it.each([
    [
      'a Lease released longer than HANDOVER_MS ago',
      lease(T0, { holder: null, releasedAt: T0 - HANDOVER_MS }),
      undefined,
      /released its Lease and no new holder took it within 15 s/,
    ],
    ['no duration', lease(T0, { durationSeconds: null }), undefined, /no valid leaseDurationSeconds/],
    [
      'a forbidden Lease',
      lease(null, { seen: { kind: 'unreadable', why: 'forbidden, 403' } }),
      undefined,
      /cannot be read \(forbidden, 403\)/,
    ],
    [
      'no GpuInventory',
      lease(T0),
      { seen: { kind: 'missing' }, problem: null },
      /has written no GpuInventory "cluster" in group gpufleet.io/,
    ],
    [
      'a status with a problem',
      lease(T0),
      { seen: { kind: 'present' }, problem: 'GpuInventory has no status yet' },
      /controller's GpuInventory has no status yet/,
    ],
  ] as const)('watches nodes for %s, and says why', (_what, l, inventory, why) => {
    const d = decide(INITIAL_POLICY, input(T0, l, inventory ? { inventory } : {}));
    expect(d.state.active).toBe('nodes');
    expect(d.message).toMatch(why);
    expect(d.message).toMatch(/; watching nodes directly\.$/);
  });

  it('goes back only after the Lease was fresh for RETURN_FRESH_MS and nodes were watched for MIN_NODES_MS', () => {
    let s: PolicyState = decide(INITIAL_POLICY, input(T0, lease(T0))).state;
    s = decide(s, input(T0 + 30_000, lease(T0))).state;
    expect(s.active).toBe('nodes');
    const fellBack = T0 + 30_000;
    // Renewed again 5 s later, and every 2 s from then on.
    let t = fellBack + 5000;
    const seen: string[] = [];
    for (; t <= fellBack + MIN_NODES_MS + 10_000; t += 2000) {
      const d = decide(s, input(t, lease(t)));
      s = d.state;
      seen.push(`${t - fellBack}:${s.active}`);
      if (s.active === 'controller') break;
    }
    const back = t - fellBack;
    expect(back).toBeGreaterThanOrEqual(MIN_NODES_MS);
    expect(back - 5000).toBeGreaterThanOrEqual(RETURN_FRESH_MS);
    expect(seen.at(-2)).toMatch(/nodes$/);
  });

  it('restarts the steady period when the Lease goes stale again before the switch back', () => {
    let s: PolicyState = { active: 'nodes', since: T0, usableSince: null, decided: true };
    s = decide(s, input(T0 + 100_000, lease(T0 + 100_000))).state; // usable from now
    expect(s.active).toBe('nodes');
    s = decide(s, input(T0 + 130_000, lease(T0 + 100_000))).state; // stale again: not usable
    expect(s.usableSince).toBeNull();
    s = decide(s, input(T0 + 131_000, lease(T0 + 131_000))).state;
    expect(s.active).toBe('nodes');
    expect(decide(s, input(T0 + 160_000, lease(T0 + 159_000))).state.active).toBe('nodes');
    expect(decide(s, input(T0 + 161_000, lease(T0 + 160_000))).state.active).toBe('controller');
  });

  it('source controller reads nothing while the controller is not usable, and says so', () => {
    const d = decide(INITIAL_POLICY, input(T0 + 40_000, lease(T0), { setting: 'controller' }));
    expect(d.state.active).toBeNull();
    expect(d.message).toMatch(/; the source is set to controller, so nodes are not watched\.$/);
    expect(
      decide(d.state, input(T0 + 41_000, lease(T0 + 41_000), { setting: 'controller' })).state.active,
    ).toBe('controller');
  });

  it('a released Lease is a hand-over: the controller is kept for HANDOVER_MS, then nodes with a sentence', () => {
    const reading = decide(INITIAL_POLICY, input(T0, lease(T0))).state;
    // Released at T0 + 5 s (the record's own duration is 1 s, and its renewTime the release).
    const released = lease(T0 + 5000, { holder: null, durationSeconds: 1, releasedAt: T0 + 5000 });
    const wait = decide(reading, input(T0 + 5000, released));
    expect(wait).toMatchObject({ state: { active: 'controller' }, message: null, nextCheckAt: T0 + 20_000 });
    const still = decide(wait.state, input(T0 + 19_999, released));
    expect(still.state.active).toBe('controller');
    // A new holder within the window: the controller stays, no fall-back, no hysteresis.
    const taken = decide(still.state, input(T0 + 12_000, lease(T0 + 12_000, { holder: 'pod-b' })));
    expect(taken).toMatchObject({ state: { active: 'controller', since: T0 }, message: null });
    // No new holder: nodes once the window is over, and why.
    const over = decide(still.state, input(T0 + 20_000, released));
    expect(over.state.active).toBe('nodes');
    expect(over.message).toBe(
      'The in-cluster controller released its Lease and no new holder took it within 15 s; watching nodes directly.',
    );
    // Source controller waits the same way.
    const ctl = decide(reading, input(T0 + 5000, released, { setting: 'controller' }));
    expect(ctl).toMatchObject({ state: { active: 'controller' }, message: null });
    // A GpuInventory that goes bad during the hand-over is not kept.
    const bad = decide(
      reading,
      input(T0 + 5000, released, { inventory: { seen: { kind: 'missing' }, problem: null } }),
    );
    expect(bad.state.active).toBe('nodes');
    expect(bad.message).toMatch(/has written no GpuInventory "cluster"/);
    // A first pick during a hand-over takes the valid status, and waits for the new holder the same way.
    const first = decide(INITIAL_POLICY, input(T0 + 5000, released));
    expect(first).toMatchObject({ state: { active: 'controller' }, message: null, nextCheckAt: T0 + 20_000 });
    // Watching nodes, a hand-over is no reason to go back, and the sentence does not claim the wait is over.
    const onNodes: PolicyState = {
      active: 'nodes',
      since: T0 - MIN_NODES_MS,
      usableSince: null,
      decided: true,
    };
    const stay = decide(onNodes, input(T0 + 5000, released));
    expect(stay.state).toMatchObject({ active: 'nodes', usableSince: null });
    expect(stay.message).toBe(
      'The in-cluster controller released its Lease and no new holder has taken it yet; watching nodes directly.',
    );
  });

  it('source nodes is always nodes', () => {
    expect(decide(INITIAL_POLICY, input(T0, lease(T0), { setting: 'nodes' }))).toMatchObject({
      state: { active: 'nodes' },
      message: null,
      nextCheckAt: null,
    });
  });
});

describe('the freshness mark: a renewed Lease alone does not make the controller usable', () => {
  const used = { active: 'controller', since: T0, usableSince: T0, decided: true } as const;

  it('a leader that renews but whose mark is older than 2 × the lease duration is left for nodes, saying why', () => {
    const now = T0 + 31_000;
    const d = decide(used, input(now, lease(now - 1_000, { freshAt: T0 })));
    expect(d.state.active).toBe('nodes');
    expect(d.message).toBe(
      'The in-cluster controller has not known its status to be current for 31 s (its node watch or its writes are failing; more than 2 × 15 s); watching nodes directly.',
    );
  });

  it('the same mark 29 s old is still fresh, and the next check is when it turns stale', () => {
    const now = T0 + 29_000;
    const d = decide(used, input(now, lease(now - 1_000, { freshAt: T0 })));
    expect(d.state.active).toBe('controller');
    expect(d.nextCheckAt).toBe(T0 + 30_000);
  });

  it('a Lease without the mark vouches for nothing', () => {
    const d = decide(used, input(T0 + 1_000, lease(T0, { freshAt: null })));
    expect(d.state.active).toBe('nodes');
    expect(d.message).toMatch(
      /does not say when its status was last current \(no gpufleet.io\/status-fresh-at annotation\)/,
    );
  });
});
