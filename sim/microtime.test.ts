// MicroTime parsing: Go's time.Parse texts for the layout kube-apiserver uses.
import { describe, expect, it } from 'vitest';
import { parseMicroTime } from './microtime.ts';

const err = (v: string, rest: string, elem: string) => ({
  error: `parsing time "${v}" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "${rest}" as "${elem}"`,
});

describe('parseMicroTime', () => {
  it('accepts six digits with Z or an offset, and stores UTC', () => {
    expect(parseMicroTime('2026-12-01T10:03:50.147748Z')).toEqual({ ok: '2026-12-01T10:03:50.147748Z' });
    expect(parseMicroTime('2026-12-01T12:03:52.506731+02:00')).toEqual({ ok: '2026-12-01T10:03:52.506731Z' });
    expect(parseMicroTime('2026-01-01T00:30:00.000001+01:00')).toEqual({ ok: '2025-12-31T23:30:00.000001Z' });
  });

  it('refuses what Go refuses, with the element it stopped at', () => {
    expect(parseMicroTime('2026-12-01T10:03:52.519Z')).toEqual(
      err('2026-12-01T10:03:52.519Z', '.519Z', '.000000'),
    );
    expect(parseMicroTime('2026-12-01T10:03:52Z')).toEqual(err('2026-12-01T10:03:52Z', 'Z', '.000000'));
    expect(parseMicroTime('2026-12-01T10:03:52.528764789Z')).toEqual(
      err('2026-12-01T10:03:52.528764789Z', '789Z', 'Z07:00'),
    );
    expect(parseMicroTime('2026/12/01T10:03:52.000000Z')).toEqual(
      err('2026/12/01T10:03:52.000000Z', '/12/01T10:03:52.000000Z', '-'),
    );
    expect(parseMicroTime('26-12-01T10:03:52.000000Z')).toEqual(
      err('26-12-01T10:03:52.000000Z', '26-12-01T10:03:52.000000Z', '2006'),
    );
    expect(parseMicroTime('2026-13-01T10:03:52.000000Z')).toEqual({
      error: 'parsing time "2026-13-01T10:03:52.000000Z": month out of range',
    });
    expect(parseMicroTime('2026-02-30T10:03:52.000000Z')).toEqual({
      error: 'parsing time "2026-02-30T10:03:52.000000Z": day out of range',
    });
    expect(parseMicroTime('2026-12-01T10:03:52.000000Zx')).toEqual({
      error: 'parsing time "2026-12-01T10:03:52.000000Zx": extra text: "x"',
    });
  });
});
