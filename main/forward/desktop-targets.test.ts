/** The desktop app's targets joined with their secrets: what a hand-edited settings file can hold. */
import { describe, expect, it } from 'vitest';
import type { ForwardTargetSetting } from '../../common/forwarding.ts';
import { checkSecretInput, resolveDesktopTargets } from './desktop-targets.ts';

const setting = (
  id: string,
  url: string,
  extra: Partial<ForwardTargetSetting> = {},
): ForwardTargetSetting => ({
  id,
  kind: 'webhook',
  url,
  topic: '',
  clusters: 'all',
  minSeverity: 'low',
  language: 'en',
  enabled: true,
  ...extra,
});

describe('resolveDesktopTargets', () => {
  it('runs one target per id: a repeated id (a hand-edited file) is not a second target', () => {
    const { targets, problems } = resolveDesktopTargets(
      [setting('hook', 'http://127.0.0.1:9/a'), setting('hook', 'http://127.0.0.1:9/b')],
      {},
    );
    // Two targets of one id would share one queue: every alert queued twice, to the second's URL.
    expect(targets.map((t) => t.secret.url)).toEqual(['http://127.0.0.1:9/a']);
    expect(problems).toEqual({});
  });

  it('a Slack target without its secret URL does not run and says why, naming no URL', () => {
    const { targets, problems } = resolveDesktopTargets([setting('chat', '', { kind: 'slack' })], {});
    expect(targets).toEqual([]);
    expect(problems.chat).toEqual({ code: 'urlNotSet', id: 'chat', kind: 'slack' });
  });

  it('an ntfy topic its router keeps for itself is a bad topic, as the form says', () => {
    const ntfy = (topic: string) =>
      resolveDesktopTargets([setting('phone', 'http://127.0.0.1:8090', { kind: 'ntfy', topic })], {});
    expect(ntfy('app').problems.phone).toEqual({ code: 'badTopic', id: 'phone' });
    expect(ntfy('gpu-alerts').problems).toEqual({});
  });

  it('refuses at the door an ntfy token a header cannot carry (it would fail every delivery)', () => {
    expect(checkSecretInput('phone', 'ntfy', { token: 'tk_ok-1.2' })).toBeNull();
    for (const token of ['tk a', 'tk\nb', 'tk\u200bc', 'tké'])
      expect(checkSecretInput('phone', 'ntfy', { token })).toEqual({
        code: 'ntfySecret',
        id: 'phone',
        fault: 'tokenChars',
      });
  });
});
