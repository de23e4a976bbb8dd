/** Flap suppression on a virtual clock: one alert, quiet while flapping, judged again once stable for the window. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { evaluate, tick } from './policy.ts';
import { at, inv, play, type Step, summary } from './scenario.testkit.ts';
import { NO_SNOOZE } from './snooze.ts';
import { INITIAL_POLICY_STATE } from './types.ts';

const ALL = { nuc1: true, nuc2: true, omen: true, omen2: true };
const N1_DOWN = { ...ALL, nuc1: false };
const BOTH_DOWN = { ...ALL, nuc1: false, omen: false };
const OMEN_DOWN = { ...ALL, omen: false };

const cases: { name: string; steps: Step[]; expected: string[] }[] = [
  {
    name: 'three changes in the window: one flapping alert, then it settles NotReady and is reported',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', N1_DOWN],
      [20, 'lab', ALL],
      [30, 'lab', N1_DOWN],
      [40, 'lab', ALL],
      [50, 'lab', N1_DOWN],
    ],
    // Last change at 50 s; stable for 15 min at 950 s; then the usual 30 s hold-down.
    expected: ['30s lab flapping [nuc1] 4→3', '980s lab ready-drop [nuc1] 4→3'],
  },
  {
    name: 'flapping that settles Ready: nothing after the flapping alert',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', N1_DOWN],
      [20, 'lab', ALL],
      [30, 'lab', N1_DOWN],
      [40, 'lab', ALL],
      [2000, 'lab', ALL],
    ],
    expected: ['30s lab flapping [nuc1] 4→3'],
  },
  {
    name: 'changes spread wider than the window are not flapping',
    steps: [
      [0, 'lab', ALL],
      [60, 'lab', N1_DOWN],
      [600, 'lab', ALL],
      [1200, 'lab', N1_DOWN],
    ],
    expected: [
      '90s lab ready-drop [nuc1] 4→3',
      '600s lab recovered [nuc1] 3→4',
      '1230s lab ready-drop [nuc1] 4→3',
    ],
  },
  {
    name: 'a node flapping during an outage episode holds the recovery until it is stable',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', BOTH_DOWN],
      [100, 'lab', OMEN_DOWN],
      [110, 'lab', BOTH_DOWN],
      [120, 'lab', OMEN_DOWN],
      [130, 'lab', ALL],
    ],
    expected: [
      '40s lab ready-drop [nuc1,omen] 4→2',
      '110s lab flapping [nuc1] 3→2',
      '1020s lab recovered [nuc1,omen] 2→4',
    ],
  },
];

describe('flap suppression', () => {
  it.each(cases)('$name', ({ steps, expected }) => {
    expect(play(steps).alerts.map(summary)).toEqual(expected);
  });

  it('says plainly that the node is flapping and for how long it stays quiet', () => {
    const { alerts } = play([
      [0, 'lab', ALL],
      [10, 'lab', N1_DOWN],
      [20, 'lab', ALL],
      [30, 'lab', N1_DOWN],
    ]);
    expect(alerts[0]?.title).toBe('lab: nuc1 is flapping');
    expect(alerts[0]?.body).toBe(
      'nuc1 changed readiness more than 2 times in 15 min. No more alerts for it until stable for 15 min.',
    );
  });

  it('honours a custom threshold and window', () => {
    const steps: Step[] = [
      [0, 'lab', ALL],
      [10, 'lab', N1_DOWN],
      [20, 'lab', ALL],
    ];
    expect(play(steps, { flapThreshold: 1, flapWindowMs: 60_000 }, 200).alerts.map(summary)).toEqual([
      '20s lab flapping [nuc1] 3→4',
    ]);
  });
});

describe('a flapping context that goes unreachable', () => {
  it('asks for no check it cannot act on: every tick moves its next check later (found by the alert round-trip property)', () => {
    const rules = { ...DEFAULT_ALERT_RULES, flapThreshold: 2 };
    let state = INITIAL_POLICY_STATE;
    let next: number | null = null;
    // nuc1 flaps (three changes), then the cluster becomes unreachable and stays so.
    for (const [s, nodes] of [
      [0, ALL],
      [10, N1_DOWN],
      [20, ALL],
      [30, N1_DOWN],
      [40, null],
    ] as const) {
      const out = evaluate(
        state,
        {
          at: at(s),
          context: 'lab',
          reachable: nodes !== null,
          inventory: nodes === null ? null : inv(nodes),
        },
        rules,
        NO_SNOOZE,
      );
      state = out.state;
      next = out.nextCheckAt;
    }
    for (let i = 0; i < 5 && next !== null; i++) {
      const out = tick(state, next, rules, NO_SNOOZE);
      expect(out.nextCheckAt === null || out.nextCheckAt > next).toBe(true);
      state = out.state;
      next = out.nextCheckAt;
    }
    expect(next).toBeNull();
  });
});
