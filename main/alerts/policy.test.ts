/** Table tests of the alert policy on a virtual clock (seconds from T0; host ticks at nextCheckAt). */
import { describe, expect, it } from 'vitest';
import type { AlertRules } from '../../common/alert-rules.ts';
import { play, type Step, summary } from './scenario.testkit.ts';

const ALL = { nuc1: true, nuc2: true, omen: true, omen2: true };
const TWO_DOWN = { nuc1: false, nuc2: true, omen: false, omen2: true };
const NUC1_DOWN = { ...ALL, nuc1: false };

interface Case {
  name: string;
  steps: Step[];
  rules?: Partial<AlertRules>;
  expected: string[];
}

const cases: Case[] = [
  {
    name: 'steady fleet: nothing',
    steps: [
      [0, 'lab', ALL],
      [60, 'lab', ALL],
    ],
    expected: [],
  },
  {
    name: 'first observation with NotReady nodes is the baseline',
    steps: [[0, 'lab', TWO_DOWN]],
    expected: [],
  },
  {
    name: 'drop that lasts the hold-down: one alert when it expires',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', TWO_DOWN],
      [20, 'lab', TWO_DOWN],
    ],
    expected: ['40s lab ready-drop [nuc1,omen] 4→2'],
  },
  {
    name: 'recovery within the hold-down: nothing',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', NUC1_DOWN],
      [39, 'lab', ALL],
    ],
    expected: [],
  },
  {
    name: 'recovery after the hold-down: exactly one recovery',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', TWO_DOWN],
      [100, 'lab', ALL],
      [110, 'lab', ALL],
      [120, 'lab', ALL],
    ],
    expected: ['40s lab ready-drop [nuc1,omen] 4→2', '100s lab recovered [nuc1,omen] 2→4'],
  },
  {
    name: 'partial recovery is not a recovery; the last node back is, counted from the last alert',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', TWO_DOWN],
      [100, 'lab', { ...ALL, omen: false }],
      [200, 'lab', ALL],
    ],
    expected: ['40s lab ready-drop [nuc1,omen] 4→2', '200s lab recovered [nuc1,omen] 2→4'],
  },
  {
    name: 'a further drop while down is a second alert; one recovery for both',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', NUC1_DOWN],
      [100, 'lab', TWO_DOWN],
      [300, 'lab', ALL],
    ],
    expected: [
      '40s lab ready-drop [nuc1] 4→3',
      '130s lab ready-drop [omen] 3→2',
      '300s lab recovered [nuc1,omen] 2→4',
    ],
  },
  {
    name: 'hold-down 0: alert on the observation itself',
    rules: { holdDownMs: 0 },
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', NUC1_DOWN],
      [11, 'lab', ALL],
    ],
    expected: ['10s lab ready-drop [nuc1] 4→3', '11s lab recovered [nuc1] 3→4'],
  },
  {
    name: 'a node that leaves the cluster counts as down',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', { nuc1: true, nuc2: true, omen: true }],
    ],
    expected: ['40s lab ready-drop [omen2] 4→3'],
  },
  {
    name: 'unreachable is never a ready drop; alert after the threshold, then reachable',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', 'unreachable'],
      [30, 'lab', 'unreachable'],
      [200, 'lab', ALL],
    ],
    expected: ['70s lab unreachable 4→-', '200s lab reachable 4→4'],
  },
  {
    name: 'short unreachability: nothing at all',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', 'unreachable'],
      [60, 'lab', ALL],
    ],
    expected: [],
  },
  {
    name: 'unreachable at start: alert with no numbers known',
    steps: [
      [0, 'lab', 'unreachable'],
      [90, 'lab', 'connected-no-inventory'],
    ],
    expected: ['60s lab unreachable -→-', '90s lab reachable -→-'],
  },
  {
    name: 'a pending drop is dropped by an outage and re-held after it',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', NUC1_DOWN],
      [20, 'lab', 'unreachable'],
      [50, 'lab', NUC1_DOWN],
    ],
    expected: ['80s lab ready-drop [nuc1] 4→3'],
  },
  {
    name: 'NotReady while reachable, then unreachable: drop then unreachable, no extra drop',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', TWO_DOWN],
      [60, 'lab', 'unreachable'],
      [300, 'lab', TWO_DOWN],
    ],
    expected: ['40s lab ready-drop [nuc1,omen] 4→2', '120s lab unreachable 2→-', '300s lab reachable 2→2'],
  },
  {
    name: 'contexts are independent',
    steps: [
      [0, 'lab', ALL],
      [0, 'work', { a: true, b: true }],
      [10, 'lab', NUC1_DOWN],
      [20, 'work', 'unreachable'],
      [100, 'work', { a: true, b: true }],
    ],
    expected: ['40s lab ready-drop [nuc1] 4→3', '80s work unreachable 2→-', '100s work reachable 2→2'],
  },
];

describe('alert policy', () => {
  it.each(cases)('$name', ({ steps, rules, expected }) => {
    expect(play(steps, rules).alerts.map(summary)).toEqual(expected);
  });

  it('words the drop and the recovery plainly', () => {
    const { alerts } = play([
      [0, 'home-lab', ALL],
      [10, 'home-lab', TWO_DOWN],
      [100, 'home-lab', ALL],
    ]);
    expect(alerts.map((a) => [a.title, a.body])).toEqual([
      [
        'home-lab: 2 GPU nodes down',
        'nuc1: readiness unknown; omen: readiness unknown. Ready GPU nodes 4 → 2.',
      ],
      ['home-lab: GPU nodes back', 'nuc1, omen are Ready again. Ready GPU nodes 2 → 4.'],
    ]);
  });

  it('words unreachability without claiming 0 ready', () => {
    const { alerts } = play([
      [0, 'lab', TWO_DOWN],
      [10, 'lab', 'unreachable'],
      [400, 'lab', TWO_DOWN],
    ]);
    expect(alerts.map((a) => a.body)).toEqual([
      'No answer from lab for 1 min. Last known: 2 of 4 GPU nodes Ready.',
      'lab answers again after 7 min unreachable. Ready GPU nodes 2.',
    ]);
  });

  it('gives deterministic ids: context, kind and time', () => {
    const steps: Step[] = [
      [0, 'lab', ALL],
      [10, 'lab', NUC1_DOWN],
    ];
    const ids = play(steps).alerts.map((a) => a.id);
    expect(ids).toEqual(['lab:ready-drop:2026-11-29T12:00:40.000Z']);
    expect(play(steps).alerts.map((a) => a.id)).toEqual(ids);
  });

  it('reports when the host must call back, and nothing when idle', () => {
    expect(
      play(
        [
          [0, 'lab', ALL],
          [10, 'lab', NUC1_DOWN],
        ],
        {},
        20,
      ).nextCheckAt,
    ).toBe(Date.UTC(2026, 10, 29, 12, 0, 40));
    expect(play([[0, 'lab', ALL]]).nextCheckAt).toBeNull();
  });
});
