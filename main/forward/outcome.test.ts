/** What an answer means for a delivery: a table per status, Retry-After forms, and the sentences. */
import { describe, expect, it } from 'vitest';
import { judge, RETRY_AFTER_MAX_MS, retryAfterMs } from './outcome.ts';
import type { SendResult } from './send.ts';

const NOW = Date.UTC(2026, 11, 1, 22, 0, 0);
const answer = (status: number, body = '', retryAfter: string | null = null): SendResult => ({
  type: 'answer',
  status,
  retryAfter,
  contentType: 'application/json',
  body,
});

describe('retryAfterMs', () => {
  it.each([
    ['120', 120_000],
    ['0', 0],
    ['Tue, 01 Dec 2026 22:00:30 GMT', 30_000],
    ['Tue, 01 Dec 2026 21:00:00 GMT', 0],
    ['999999', RETRY_AFTER_MAX_MS],
    ['soon', null],
    ['1.5', null],
    ['2026-12-01T22:00:30Z', null],
  ])('%s → %s', (value, ms) => {
    expect(retryAfterMs(value, NOW)).toBe(ms);
  });
});

describe('judge', () => {
  it.each([
    [200, '', 'delivered'],
    [204, '', 'delivered'],
    [429, '', 'retry'],
    [408, '', 'retry'],
    [500, '', 'retry'],
    [503, '', 'retry'],
    [400, '', 'terminal'],
    [401, '', 'terminal'],
    [404, '', 'terminal'],
    [413, '', 'terminal'],
  ])('%i is %s', (status, body, type) => {
    expect(judge('webhook', 'http://127.0.0.1:9', answer(status, body), NOW).type).toBe(type);
  });

  it("words ntfy's JSON error and a hint, never the URL's path", () => {
    const body =
      '{"code":40301,"http":403,"error":"forbidden","link":"https://ntfy.sh/docs/publish/#authentication"}\n';
    expect(judge('ntfy', 'http://127.0.0.1:8090', answer(403, body), NOW)).toEqual({
      type: 'terminal',
      why: 'ntfy http://127.0.0.1:8090: 403 forbidden — check the token or password, and that it may write to this topic',
      status: 403,
      said: 'forbidden',
    });
  });

  it("waits for ntfy's refill when it gives no Retry-After: 5 s, a minute after auth failures", () => {
    const limited = '{"code":42901,"http":429,"error":"limit reached: too many requests"}';
    const auth = '{"code":42909,"http":429,"error":"limit reached: too many auth failures"}';
    expect(judge('ntfy', 'h', answer(429, limited), NOW)).toMatchObject({ afterMs: 5_000 });
    expect(judge('ntfy', 'h', answer(429, auth), NOW)).toMatchObject({ afterMs: 60_000 });
    expect(judge('webhook', 'h', answer(429, limited), NOW)).toMatchObject({ afterMs: null });
  });

  it("reads Discord's retry_after when the header is missing", () => {
    const body = '{"message": "You are being rate limited.", "retry_after": 1.25, "global": false}';
    expect(judge('discord', 'h', answer(429, body), NOW)).toMatchObject({ type: 'retry', afterMs: 1_250 });
  });

  it('redacts a secret a server echoes back', () => {
    const out = judge(
      'webhook',
      'h',
      answer(400, 'bad request: token=tk_abcdefghijklmnopqrstuvwxyz012'),
      NOW,
    );
    expect(JSON.stringify(out)).not.toContain('tk_abcdefghijklmnopqrstuvwxyz012');
  });

  it('a failure is retried, ambiguous only when the connection was made', () => {
    expect(judge('ntfy', 'h', { type: 'failure', what: 'connection refused', sent: false }, NOW)).toEqual({
      type: 'retry',
      afterMs: null,
      why: 'ntfy h: connection refused',
      ambiguous: false,
      status: null,
      said: 'connection refused',
    });
    expect(judge('ntfy', 'h', { type: 'failure', what: 'connection reset', sent: true }, NOW)).toMatchObject({
      ambiguous: true,
    });
  });
});
