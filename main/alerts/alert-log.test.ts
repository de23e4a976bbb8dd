/** The bounded alert log: newest kept, idempotent by id. */
import { describe, expect, it } from 'vitest';
import { appendAlerts, DEFAULT_LOG_LIMIT, trimLog } from './alert-log.ts';
import type { PolicyAlert } from './types.ts';

const alert = (i: number, suppressed = false): PolicyAlert => ({
  id: `lab:ready-drop:${i}`,
  at: new Date(i * 1000).toISOString(),
  context: 'lab',
  kind: 'ready-drop',
  title: 't',
  body: 'b',
  nodes: [],
  before: 1,
  after: 0,
  ...(suppressed ? { suppressed } : {}),
});
const ids = (log: PolicyAlert[]) => log.map((a) => a.id.split(':')[2]);

describe('alert log', () => {
  it('appends in order and keeps suppressed alerts', () => {
    const log = appendAlerts([alert(1)], [alert(2, true), alert(3)]);
    expect(ids(log)).toEqual(['1', '2', '3']);
    expect(log[1]?.suppressed).toBe(true);
  });

  it('ignores alerts already logged (same id)', () => {
    expect(ids(appendAlerts([alert(1), alert(2)], [alert(2), alert(3), alert(3)]))).toEqual(['1', '2', '3']);
  });

  it.each([
    [600, DEFAULT_LOG_LIMIT, 500, '100'],
    [10, 3, 3, '7'],
    [10, 0, 0, undefined],
  ])('bounds %i alerts to %i', (n, limit, length, first) => {
    const log = appendAlerts(
      [],
      Array.from({ length: n }, (_, i) => alert(i)),
      limit,
    );
    expect(log.length).toBe(length);
    expect(ids(log)[0]).toBe(first);
  });

  it('trims an existing log without changing the input', () => {
    const log = [alert(1), alert(2), alert(3)];
    expect(ids(trimLog(log, 2))).toEqual(['2', '3']);
    expect(log.length).toBe(3);
  });
});
