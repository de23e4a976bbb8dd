/** `--forward KIND=URL` and its routing flags, checked at the door with a sentence. */
import { describe, expect, it } from 'vitest';
import { forwardTargets, parseForwardSpec } from './forward-flags.ts';

describe('forwardTargets', () => {
  it('names targets by kind and place, and applies the routing flags to all of them', () => {
    const targets = forwardTargets(
      [
        'ntfy=http://127.0.0.1:8090/gpu-alerts',
        'webhook=http://127.0.0.1:9/hook',
        'ntfy=http://127.0.0.1:8090/gpu-b',
      ],
      { 'forward-context': ['homelab', 'work'], 'forward-min-severity': 'high', 'forward-language': 'ko' },
      {},
    );
    expect(targets.map((t) => t.config)).toEqual(
      ['ntfy-1', 'webhook-1', 'ntfy-2'].map((id, i) => ({
        id,
        kind: i === 1 ? 'webhook' : 'ntfy',
        host: i === 1 ? 'http://127.0.0.1:9' : 'http://127.0.0.1:8090',
        clusters: ['homelab', 'work'],
        minSeverity: 'high',
        language: 'ko',
        enabled: true,
      })),
    );
  });

  it('takes secrets from the environment when no file is named, only for the kinds that use them', () => {
    const env = { GPU_FLEET_FORWARD_TOKEN: 'tk_env', GPU_FLEET_FORWARD_SIGNING_KEY: 'whsec' };
    const [n, w] = forwardTargets(['ntfy=http://127.0.0.1:1/t', 'webhook=http://127.0.0.1:1/h'], {}, env);
    expect([n?.secret, w?.secret]).toEqual([
      { url: 'http://127.0.0.1:1/t', token: 'tk_env' },
      { url: 'http://127.0.0.1:1/h', signingKey: 'whsec' },
    ]);
  });

  it('refuses a token no Authorization header can carry, without repeating it', () => {
    const env = { GPU_FLEET_FORWARD_TOKEN: 'tk_pasted\u200bhalf' };
    expect(() => forwardTargets(['ntfy=http://127.0.0.1:1/t'], {}, env)).toThrow(/visible ASCII/);
    expect(() => forwardTargets(['ntfy=http://127.0.0.1:1/t'], {}, env)).not.toThrow(/tk_pasted/);
  });

  it.each([
    [{ 'forward-min-severity': 'loud' }, '--forward-min-severity must be one of low, default, high, urgent'],
    [{ 'forward-language': 'fr' }, '--forward-language must be one of en, zh-CN, ko, ja'],
    [{ 'forward-context': [''] }, '--forward-context takes a kubeconfig context name'],
    [{ 'forward-token-file': '/x', 'forward-user-file': '/y' }, 'not both'],
  ])('refuses %o', (flags, words) => {
    expect(() => forwardTargets(['ntfy=http://127.0.0.1:1/t'], flags, {})).toThrow(words);
  });

  it('refuses a spec without a known kind', () => {
    expect(() => parseForwardSpec('http://127.0.0.1/x')).toThrow('--forward takes KIND=URL');
  });
});
