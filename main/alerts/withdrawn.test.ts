/** GPUs withdrawn by the device plugin: alerted once per level, again only when more are withdrawn. */
import { describe, expect, it } from 'vitest';
import type { AlertRules } from '../../common/alert-rules.ts';
import { play, type Step, summary } from './scenario.testkit.ts';

const g = (alloc: number, ready = true) => ({ g1: { ready, cap: 16, alloc } });

const cases: { name: string; steps: Step[]; rules?: Partial<AlertRules>; expected: string[] }[] = [
  {
    name: 'withdrawn, same again, more, partly back, all back, withdrawn again',
    steps: [
      [0, 'lab', g(16)],
      [10, 'lab', g(14)],
      [20, 'lab', g(14)],
      [30, 'lab', g(12)],
      [40, 'lab', g(13)],
      [50, 'lab', g(16)],
      [60, 'lab', g(15)],
    ],
    expected: [
      '10s lab gpus-withdrawn [g1] 16→14',
      '30s lab gpus-withdrawn [g1] 14→12',
      '60s lab gpus-withdrawn [g1] 16→15',
    ],
  },
  {
    name: 'already withdrawn at the first observation',
    steps: [[0, 'lab', g(0)]],
    expected: ['0s lab gpus-withdrawn [g1] 16→0'],
  },
  {
    name: 'a NotReady node with nothing allocatable is a drop, not a withdrawal',
    steps: [
      [0, 'lab', g(16)],
      [10, 'lab', g(0, false)],
      [100, 'lab', g(16)],
    ],
    expected: ['40s lab ready-drop [g1] 1→0', '100s lab recovered [g1] 0→1'],
  },
  {
    name: 'switched off by the rules',
    rules: { withdrawnGpus: false },
    steps: [
      [0, 'lab', g(16)],
      [10, 'lab', g(2)],
    ],
    expected: [],
  },
  {
    name: 'several nodes in one observation: one alert with the sums',
    steps: [
      [0, 'lab', { a: { ready: true, cap: 8, alloc: 8 }, b: { ready: true, cap: 4, alloc: 4 } }],
      [10, 'lab', { a: { ready: true, cap: 8, alloc: 6 }, b: { ready: true, cap: 4, alloc: 3 } }],
    ],
    expected: ['10s lab gpus-withdrawn [a,b] 12→9'],
  },
];

describe('withdrawn GPUs', () => {
  it.each(cases)('$name', ({ steps, rules, expected }) => {
    expect(play(steps, rules).alerts.map(summary)).toEqual(expected);
  });

  it('names the node and the numbers', () => {
    const [alert] = play([
      [0, 'lab', g(16)],
      [10, 'lab', g(14)],
    ]).alerts;
    expect(alert?.title).toBe('lab: GPUs withdrawn on g1');
    expect(alert?.body).toBe(
      'g1 offers 14 of its 16 GPUs. The device plugin withdrew the rest (failed or unhealthy GPUs).',
    );
  });
});
