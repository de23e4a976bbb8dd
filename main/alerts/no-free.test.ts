/**
 * The optional no-free-GPU alert, played through the policy as the engine does (evaluateFree on each
 * change of the figures, tick when nextCheckAt is due): hold-down, the state first seen, recovery,
 * flap damping, pause, unknown and stale figures, the rule off.
 */
import { describe, expect, it } from 'vitest';
import { type AlertRules, DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import type { ClusterFree, ProductFree } from '../../common/free-gpus.ts';
import { alertText } from '../../common/i18n/alert-text.ts';
import { translator } from '../../common/i18n/translator.ts';
import { unknownFree } from '../inventory/free-gpus.ts';
import { PRODUCTS_WATCHED_MAX } from './no-free.ts';
import { evaluate, evaluateFree, tick } from './policy.ts';
import { at, inv, summary } from './scenario.testkit.ts';
import { NO_SNOOZE, type SnoozeState, snooze } from './snooze.ts';
import { INITIAL_POLICY_STATE, type PolicyAlert } from './types.ts';

/** Free GPUs per product label (8 allocatable each), or figures that are not known and fresh. */
type Figures = Record<string, number> | 'forbidden' | 'listing' | 'stale' | 'pause' | 'nodes-drop';
type Step = [number, Figures];

function product(label: string, free: number): ProductFree {
  return {
    key: `${label}|whole|`,
    label,
    product: label,
    kind: 'whole',
    profile: null,
    nodes: 2,
    capacity: 8,
    allocatable: 8,
    in_use: 8 - free,
    free,
    max_free_on_one_node: free,
  };
}

function known(free: Record<string, number>, stale = false): ClusterFree {
  const products = Object.entries(free).map(([label, n]) => product(label, n));
  return {
    state: 'known',
    reason: null,
    message: null,
    stale,
    products,
    nodes: [],
    free_total: products.reduce((s, p) => s + (p.free ?? 0), 0),
    pending: { count: 3, pods: [] },
    overcommitted: [],
  };
}

function play(steps: Step[], rules: Partial<AlertRules> = {}): PolicyAlert[] {
  const r: AlertRules = { ...DEFAULT_ALERT_RULES, noFreeGpu: true, ...rules };
  let state = INITIAL_POLICY_STATE;
  let paused: SnoozeState = NO_SNOOZE;
  let next: number | null = null;
  let last: Record<string, number> = {};
  const alerts: PolicyAlert[] = [];
  const ticksBefore = (limit: number) => {
    while (next !== null && next <= limit) {
      const out = tick(state, next, r, paused);
      state = out.state;
      alerts.push(...out.alerts);
      next = out.nextCheckAt;
    }
  };
  for (const [s, figures] of steps) {
    ticksBefore(at(s) - 1);
    if (figures === 'pause') {
      paused = snooze(paused, 'lab', { kind: 'until-resumed' }, at(s), () => 0);
      continue;
    }
    if (figures === 'nodes-drop') {
      // The ready-drop alert's own path runs beside it and must not disturb the free GPUs' state.
      const out = evaluate(
        state,
        { at: at(s), context: 'lab', reachable: true, inventory: inv({ a: true }) },
        r,
        paused,
      );
      state = out.state;
      alerts.push(...out.alerts.filter((a) => a.kind === 'no-free-gpu' || a.kind === 'free-gpu-back'));
      next = out.nextCheckAt;
      continue;
    }
    const free =
      figures === 'forbidden' || figures === 'listing'
        ? unknownFree(figures)
        : figures === 'stale'
          ? known(last, true)
          : known(figures);
    if (typeof figures === 'object') last = figures;
    const out = evaluateFree(state, { at: at(s), context: 'lab', free }, r, paused);
    state = out.state;
    alerts.push(...out.alerts);
    next = out.nextCheckAt;
  }
  ticksBefore(at((steps.at(-1)?.[0] ?? 0) + 3600));
  return alerts;
}

const cases: { name: string; steps: Step[]; rules?: Partial<AlertRules>; expected: string[] }[] = [
  {
    name: 'none free for the hold-down (by a tick), then free again at once',
    steps: [
      [0, { A100: 2 }],
      [10, { A100: 0 }],
      [100, { A100: 1 }],
    ],
    expected: ['40s lab no-free-gpu -→0', '100s lab free-gpu-back 0→1'],
  },
  {
    name: 'free again within the hold-down: nothing',
    steps: [
      [0, { A100: 2 }],
      [10, { A100: 0 }],
      [30, { A100: 2 }],
    ],
    expected: [],
  },
  {
    name: 'the rule is off by default: nothing',
    rules: { noFreeGpu: DEFAULT_ALERT_RULES.noFreeGpu },
    steps: [
      [0, { A100: 2 }],
      [10, { A100: 0 }],
    ],
    expected: [],
  },
  {
    name: 'already full when first seen: taken as known, alerted only after one freed up',
    steps: [
      [0, { A100: 0 }],
      [100, { A100: 0 }],
      [200, { A100: 1 }],
      [210, { A100: 0 }],
    ],
    expected: ['240s lab no-free-gpu -→0'],
  },
  {
    name: 'pods forbidden never raise it, however long',
    steps: [
      [0, 'forbidden'],
      [600, 'forbidden'],
    ],
    expected: [],
  },
  {
    name: 'figures unknown within the hold-down void it; known again, the hold-down starts afresh',
    steps: [
      [0, { A100: 2 }],
      [10, { A100: 0 }],
      [20, 'forbidden'],
      [50, { A100: 0 }],
    ],
    expected: ['80s lab no-free-gpu -→0'],
  },
  {
    name: 'stale figures (pods watch reconnecting) void the hold-down like unknown ones',
    steps: [
      [0, { A100: 2 }],
      [10, { A100: 0 }],
      [20, 'stale'],
      [60, { A100: 0 }],
    ],
    expected: ['90s lab no-free-gpu -→0'],
  },
  {
    name: 'after the alert, stale or unknown figures neither recover it nor alert again',
    steps: [
      [0, { A100: 2 }],
      [10, { A100: 0 }],
      [45, { A100: 0 }],
      [50, 'stale'],
      [60, 'listing'],
      [500, { A100: 0 }],
    ],
    expected: ['40s lab no-free-gpu -→0'],
  },
  {
    name: 'two products at one instant: two alerts with distinct ids',
    steps: [
      [0, { A100: 2, L4: 1 }],
      [10, { A100: 0, L4: 0 }],
    ],
    expected: ['40s lab no-free-gpu -→0', '40s lab no-free-gpu -→0'],
  },
  {
    name: 'flapping between none and some free is damped until stable for the window, then judged',
    rules: { flapThreshold: 2, flapWindowMs: 300_000 },
    steps: [
      [0, { A100: 1 }],
      [10, { A100: 0 }],
      [20, { A100: 1 }],
      [30, { A100: 0 }],
      [40, { A100: 1 }],
      [50, { A100: 0 }],
      [100, { A100: 0 }],
    ],
    // Changes at 10, 20 and 30 s: flapping from 30 s (more than 2 in the window), last change at 50 s,
    // stable from 350 s: none free since 50 s, held long enough (not at 100 s), alerted then.
    expected: ['350s lab no-free-gpu -→0'],
  },
  {
    name: 'paused: decided and kept, suppressed',
    steps: [
      [0, { A100: 2 }],
      [5, 'pause'],
      [10, { A100: 0 }],
    ],
    expected: ['40s lab no-free-gpu -→0 (suppressed)'],
  },
  {
    name: "the nodes' own policy beside it leaves its hold-down alone",
    steps: [
      [0, { A100: 2 }],
      [10, { A100: 0 }],
      [20, 'nodes-drop'],
    ],
    expected: ['40s lab no-free-gpu -→0'],
  },
  {
    name: 'a product whose nodes left is forgotten without an alert',
    steps: [
      [0, { A100: 2, L4: 1 }],
      [10, { A100: 0, L4: 1 }],
      [100, { L4: 1 }],
      [200, { A100: 3, L4: 1 }],
    ],
    expected: ['40s lab no-free-gpu -→0'],
  },
];

describe('no free GPU of a product', () => {
  it.each(cases)('$name', ({ steps, rules, expected }) => {
    const alerts = play(steps, rules);
    expect(alerts.map(summary)).toEqual(expected);
    expect(new Set(alerts.map((a) => a.id)).size).toBe(alerts.length);
  });

  it('words the product, what is allocatable and the Pending pods; the recovery how long it took', () => {
    const [down, back] = play([
      [0, { 'A100 SXM4 80GB': 2 }],
      [10, { 'A100 SXM4 80GB': 0 }],
      [130, { 'A100 SXM4 80GB': 3 }],
    ]);
    expect(down?.title).toBe('lab: no free A100 SXM4 80GB');
    expect(down?.body).toBe(
      'No A100 SXM4 80GB has been free on the nodes that can take a pod for 30 s (8 allocatable, all in use). 3 GPU pods are Pending.',
    );
    expect(down?.words).toEqual({
      kind: 'no-free-gpu',
      product: 'A100 SXM4 80GB',
      allocatable: 8,
      pending: 3,
      forMs: 30_000,
      item: { product: 'A100 SXM4 80GB', kind: 'whole', profile: null },
    });
    expect(back?.title).toBe('lab: A100 SXM4 80GB free again');
    expect(back?.body).toBe('A100 SXM4 80GB free now: 3, after 2 min with none.');
  });

  it('carries the product as facts, so a Korean or Japanese alert words "shared" in its language', () => {
    const r: AlertRules = { ...DEFAULT_ALERT_RULES, noFreeGpu: true };
    const shared: ProductFree = {
      ...product('RTX 4090 (shared)', 0),
      product: 'NVIDIA-GeForce-RTX-4090-SHARED',
      kind: 'shared',
    };
    const figures = (free: number): ClusterFree => ({ ...known({}), products: [{ ...shared, free }] });
    let state = evaluateFree(
      INITIAL_POLICY_STATE,
      { at: at(0), context: 'lab', free: figures(1) },
      r,
      NO_SNOOZE,
    ).state;
    state = evaluateFree(state, { at: at(10), context: 'lab', free: figures(0) }, r, NO_SNOOZE).state;
    const [alert] = tick(state, at(10) + r.holdDownMs, r, NO_SNOOZE).alerts;
    expect(alert?.title).toBe('lab: no free RTX 4090 (shared)');
    const words = alert?.words;
    if (words === undefined) throw new Error('the alert carries no words');
    const ko = alertText({ ...(alert as PolicyAlert), words }, translator('ko'));
    expect(ko.title).toContain('RTX 4090 (공유)');
    expect(`${ko.title} ${ko.body}`).not.toMatch(/shared/);
    expect(alertText({ ...(alert as PolicyAlert), words }, translator('ja')).title).toContain(
      'RTX 4090（共有）',
    );
  });

  it(`follows at most ${PRODUCTS_WATCHED_MAX} products of a cluster`, () => {
    const many = (n: number) => Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`P${i}`, n]));
    const alerts = play([
      [0, many(1)],
      [10, many(0)],
    ]);
    expect(alerts).toHaveLength(PRODUCTS_WATCHED_MAX);
  });
});
