/** The forwarding form's own checks, in the window's words, before the host checks the target again. */
import { describe, expect, it } from 'vitest';
import { FORWARD_URL_MAX } from '../../common/forwarding.ts';
import type { MessageKey } from '../../common/i18n/catalog-types.ts';
import { checkDraft, emptyDraft, secretProblem } from './forward-form.ts';

const t = (key: MessageKey) => key;
const draft = (over: Partial<ReturnType<typeof emptyDraft>>) => ({
  ...emptyDraft('en'),
  id: 'phone',
  ...over,
});

describe('checkDraft', () => {
  it.each([
    ['ntfy', 'http://127.0.0.1:8090', 'gpu-alerts'],
    ['webhook', 'https://hooks.example/gpu', ''],
  ] as const)('takes a plain %s URL', (kind, url, topic) => {
    expect(checkDraft(draft({ kind, url, topic }), t).ok).toBe(true);
  });

  it.each([
    ['a user and password', 'https://rig:pw@hooks.example/gpu'],
    ['a ?query (often a token; settings are plain text)', 'https://hooks.example/gpu?token=abc'],
    ['a #fragment', 'https://hooks.example/gpu#x'],
    ['another scheme', 'javascript:alert(1)'],
    ['no URL at all', 'hooks.example/gpu'],
  ])('refuses a webhook URL with %s, in the window’s words', (_what, url) => {
    const checked = checkDraft(draft({ kind: 'webhook', url }), t);
    expect(checked).toEqual({ ok: false, errors: { url: 'forwarding.form.badUrl' } });
  });

  it.each(['app', 'docs', 'metrics', 'v1', 'a b', 'x'.repeat(65)])(
    'refuses the ntfy topic %j as the host does (a name its router keeps, or outside its rule)',
    (topic) => {
      expect(checkDraft(draft({ kind: 'ntfy', url: 'http://127.0.0.1:8090', topic }), t)).toEqual({
        ok: false,
        errors: { topic: 'forwarding.form.badTopic' },
      });
    },
  );

  it('refuses a URL longer than the host takes (FORWARD_URL_MAX), before it is sent', () => {
    const url = (n: number) => `https://hooks.example/${'g'.repeat(n - 'https://hooks.example/'.length)}`;
    expect(checkDraft(draft({ kind: 'webhook', url: url(FORWARD_URL_MAX) }), t).ok).toBe(true);
    expect(checkDraft(draft({ kind: 'webhook', url: url(FORWARD_URL_MAX + 1) }), t)).toEqual({
      ok: false,
      errors: { url: 'forwarding.form.urlTooLong' },
    });
    expect(secretProblem('slack', { url: url(FORWARD_URL_MAX + 1) }, t)).toBe('forwarding.form.urlTooLong');
    expect(secretProblem('slack', { url: url(FORWARD_URL_MAX) }, t)).toBeNull();
  });
});
