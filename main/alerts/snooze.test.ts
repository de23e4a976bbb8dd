/** Snooze: for a while, until tomorrow 08:00 local, until resumed; per context or for all. Snoozed alerts are kept, marked suppressed. */
import { describe, expect, it } from 'vitest';
import { play, type Step, summary } from './scenario.testkit.ts';
import { isSnoozed, NO_SNOOZE, pruneSnooze, resume, snooze, snoozeEnd, tomorrowMorning } from './snooze.ts';

const ALL = { nuc1: true, nuc2: true };
const DOWN = { nuc1: false, nuc2: true };
const HOUR = 3_600_000;

const cases: { name: string; steps: Step[]; expected: string[] }[] = [
  {
    name: 'all for 1 h: suppressed inside the hour, notified after',
    steps: [
      [0, 'lab', ALL],
      [5, 'snooze', (s, now) => snooze(s, null, { kind: 'for', ms: HOUR }, now)],
      [10, 'lab', DOWN],
      [100, 'lab', ALL],
      [4000, 'lab', DOWN],
    ],
    expected: [
      '40s lab ready-drop [nuc1] 2→1 (suppressed)',
      '100s lab recovered [nuc1] 1→2 (suppressed)',
      '4030s lab ready-drop [nuc1] 2→1',
    ],
  },
  {
    name: 'per context: only that context is quiet',
    steps: [
      [0, 'lab', ALL],
      [0, 'work', ALL],
      [5, 'snooze', (s, now) => snooze(s, 'lab', { kind: 'until-resumed' }, now)],
      [10, 'lab', DOWN],
      [10, 'work', DOWN],
    ],
    expected: ['40s lab ready-drop [nuc1] 2→1 (suppressed)', '40s work ready-drop [nuc1] 2→1'],
  },
  {
    name: 'until resumed, then resumed',
    steps: [
      [0, 'lab', ALL],
      [5, 'snooze', (s, now) => snooze(s, null, { kind: 'until-resumed' }, now)],
      [10, 'lab', DOWN],
      [50, 'snooze', (s) => resume(s, null)],
      [100, 'lab', ALL],
    ],
    expected: ['40s lab ready-drop [nuc1] 2→1 (suppressed)', '100s lab recovered [nuc1] 1→2'],
  },
];

const CET = () => 60;
const utc = (s: string) => Date.parse(s);

describe('snooze', () => {
  it.each(cases)('$name', ({ steps, expected }) => {
    expect(play(steps).alerts.map(summary)).toEqual(expected);
  });

  it.each([
    ['evening → tomorrow 08:00', utc('2026-11-29T22:00:00Z'), CET, '2026-11-30T07:00:00.000Z'],
    ['02:30 at night → this morning 08:00', utc('2026-11-29T01:30:00Z'), CET, '2026-11-29T07:00:00.000Z'],
    ['New York mid-morning', utc('2026-11-29T15:00:00Z'), () => -300, '2026-11-30T13:00:00.000Z'],
    // Europe switches to summer time at 01:00Z on 2026-03-29: 08:00 local is then 06:00Z.
    [
      'over a DST change',
      utc('2026-03-28T21:00:00Z'),
      (ms: number) => (ms < utc('2026-03-29T01:00:00Z') ? 60 : 120),
      '2026-03-29T06:00:00.000Z',
    ],
  ])('until tomorrow: %s', (_name, now, offset, expected) => {
    expect(new Date(tomorrowMorning(now, offset)).toISOString()).toBe(expected);
  });

  it('ends a "for" snooze after its duration and a "resumed" one never', () => {
    expect(snoozeEnd({ kind: 'for', ms: HOUR }, 1000)).toBe(1000 + HOUR);
    expect(snoozeEnd({ kind: 'until-resumed' }, 1000)).toBeNull();
  });

  it('resumes one context or everything, and prunes ended snoozes', () => {
    let s = snooze(NO_SNOOZE, 'lab', { kind: 'for', ms: 10 }, 0);
    s = snooze(s, 'work', { kind: 'until-resumed' }, 0);
    s = snooze(s, null, { kind: 'for', ms: 5 }, 0);
    expect([
      isSnoozed(s, 'other', 4),
      isSnoozed(s, 'other', 5),
      isSnoozed(s, 'lab', 9),
      isSnoozed(s, 'lab', 10),
    ]).toEqual([true, false, true, false]);
    expect(pruneSnooze(s, 10)).toEqual({ all: null, contexts: { work: { until: null } } });
    expect(isSnoozed(resume(s, 'work'), 'work', 100)).toBe(false);
    expect(resume(s, null)).toEqual(NO_SNOOZE);
  });
});
