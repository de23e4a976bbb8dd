import { describe, expect, it } from 'vitest';
import { parseApiStatus, retryAfterMs } from './api-status.ts';

describe('parseApiStatus: the one reader of an error answer', () => {
  it('reads message, reason, code, details.name and causes of a Status', () => {
    const s = parseApiStatus(
      JSON.stringify({
        kind: 'Status',
        message: 'Apply failed with 1 conflict',
        reason: 'Conflict',
        code: 409,
        details: {
          name: 'cluster',
          causes: [
            { reason: 'FieldManagerConflict', message: 'conflict with "helm"', field: '.data.x' },
            'junk',
          ],
        },
      }),
    );
    expect(s).toEqual({
      json: true,
      kind: 'Status',
      message: 'Apply failed with 1 conflict',
      reason: 'Conflict',
      code: 409,
      name: 'cluster',
      causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "helm"', field: '.data.x' },
        { reason: null, message: null, field: null },
      ],
    });
  });

  it('ignores fields of the wrong type', () => {
    const s = parseApiStatus(
      JSON.stringify({ message: 7, reason: {}, code: '409', details: { causes: {} } }),
    );
    expect(s).toEqual({
      json: true,
      kind: null,
      message: null,
      reason: null,
      code: null,
      name: null,
      causes: [],
    });
  });

  it('a Status cut short keeps its message; a text body is its own message', () => {
    expect(parseApiStatus('{"kind":"Status","message":"etcd is \\"busy\\" now","reas').message).toBe(
      'etcd is "busy" now',
    );
    expect(parseApiStatus('404 page not found\n')).toMatchObject({
      json: false,
      message: '404 page not found',
    });
    expect(parseApiStatus('[1,2]').json).toBe(false);
    expect(parseApiStatus('').message).toBeNull();
  });

  it('Retry-After in milliseconds, capped at 300 s', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(['5', '9'])).toBe(5000);
    expect(retryAfterMs('9999')).toBe(300_000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
  });
});
