/**
 * Fault matrix, brief reconnects and the alert policy (virtual clock, seconds from T0): a watch that
 * stalls and is re-opened ("reconnecting") is not an outage. It raises no unreachable alert and does not
 * restart a pending ready-drop's hold-down; only a real "unreachable" (reported by the connection
 * tracker after its threshold) drops a pending drop.
 */
import { describe, expect, it } from 'vitest';
import { countsAsReachable } from '../../main/alerts/reachability.ts';
import { play, type Step, summary } from '../../main/alerts/scenario.testkit.ts';

const ALL = { a: true, b: true, c: true };
const A_DOWN = { a: false, b: true, c: true };

const cases: { name: string; steps: Step[]; expected: string[] }[] = [
  {
    name: 'a stall in the middle of a hold-down: the drop is alerted when the hold-down ends',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', A_DOWN],
      [20, 'lab', 'reconnecting'],
      [25, 'lab', A_DOWN],
    ],
    expected: ['40s lab ready-drop [a] 3→2'],
  },
  {
    name: 'a stall every few seconds while a drop is pending: still one alert, on time',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', A_DOWN],
      [15, 'lab', 'reconnecting'],
      [17, 'lab', A_DOWN],
      [22, 'lab', 'reconnecting'],
      [24, 'lab', A_DOWN],
      [29, 'lab', 'reconnecting'],
      [31, 'lab', A_DOWN],
      [36, 'lab', 'reconnecting'],
      [38, 'lab', A_DOWN],
    ],
    expected: ['40s lab ready-drop [a] 3→2'],
  },
  {
    name: 'the hold-down ends during the stall: alerted on the last inventory seen',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', A_DOWN],
      [35, 'lab', 'reconnecting'],
      [50, 'lab', A_DOWN],
    ],
    expected: ['40s lab ready-drop [a] 3→2'],
  },
  {
    name: 'a long reconnect with a healthy fleet: no unreachable alert, no reachable alert',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', 'reconnecting'],
      [100, 'lab', ALL],
    ],
    expected: [],
  },
  {
    name: 'a recovery within the hold-down across a stall: nothing',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', A_DOWN],
      [20, 'lab', 'reconnecting'],
      [30, 'lab', ALL],
    ],
    expected: [],
  },
  {
    name: 'a real outage still drops the pending drop, which is held afresh after it',
    steps: [
      [0, 'lab', ALL],
      [10, 'lab', A_DOWN],
      [20, 'lab', 'unreachable'],
      [50, 'lab', A_DOWN],
    ],
    expected: ['80s lab ready-drop [a] 3→2'],
  },
];

describe('brief reconnects and the alert policy', () => {
  it.each(cases)('$name', ({ steps, expected }) => {
    expect(play(steps).alerts.map(summary)).toEqual(expected);
  });

  it('the engine counts reconnecting as reachable and unreachable as not', () => {
    expect(countsAsReachable('reconnecting')).toBe(true);
    expect(countsAsReachable('live')).toBe(true);
    for (const phase of ['unreachable', 'unauthorized', 'forbidden', 'config-error'] as const)
      expect(countsAsReachable(phase)).toBe(false);
  });
});
