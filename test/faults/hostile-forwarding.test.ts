/**
 * The desktop app's forwarding input paths, fed hostile values: the window's target and secret (the
 * contract's schemas, then the checks where they enter), the shell's `secrets` message to the host, and
 * node conditions that claim to be GPU health signals. Each is refused with a sentence that repeats no
 * secret, or kept bounded.
 */
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import type { ForwardSecretInput, ForwardTargetSetting } from '../../common/forwarding.ts';
import { SHELL_MESSAGE_SCHEMA } from '../../common/host-protocol.ts';
import { forwardWordsEnglish } from '../../common/i18n/forward-words-text.ts';
import { ARG_SCHEMAS } from '../../common/ipc.ts';
import { check } from '../../common/validate.ts';
import { ShellSecrets } from '../../main/electron/forward-secrets.ts';
import { checkSecretInput, checkTargetSetting } from '../../main/forward/desktop-targets.ts';
import { trimNode } from '../../main/inventory/node-facts.ts';

const PASSWORD = 'hunter2-planted-Zq8xv';
const target = (over: Partial<ForwardTargetSetting> = {}): ForwardTargetSetting => ({
  id: 'phone',
  kind: 'ntfy',
  url: 'http://127.0.0.1:8090',
  topic: 'gpu-alerts',
  clusters: 'all',
  minSeverity: 'low',
  language: 'en',
  enabled: true,
  ...over,
});

describe('the window’s target', () => {
  it.each([
    ['an id that is a prototype name', { id: '__proto__' }],
    ['an upper-case id', { id: 'Phone' }],
    ['a URL of 3000 characters', { url: `http://h/${'a'.repeat(3000)}` }],
    ['65 clusters', { clusters: Array.from({ length: 65 }, (_, i) => `c${i}`) }],
    ['an unknown kind', { kind: 'email' }],
  ])('the contract refuses %s', (_, over) => {
    expect(check(ARG_SCHEMAS['forward:save'], [{ ...target(), ...over }]).ok).toBe(false);
  });

  it('the contract refuses a field it does not name', () => {
    expect(check(ARG_SCHEMAS['forward:save'], [{ ...target(), token: PASSWORD }]).ok).toBe(false);
  });

  it.each([
    ['a password in the ntfy URL', target({ url: `https://rig:${PASSWORD}@ntfy.example` })],
    [
      'a webhook URL with a password',
      target({ kind: 'webhook', topic: '', url: `https://u:${PASSWORD}@h/x` }),
    ],
    [
      'a Slack URL in the settings',
      target({ kind: 'slack', topic: '', url: `https://hooks.slack.com/${PASSWORD}` }),
    ],
    [
      'a webhook URL with a token in its query (settings are plain text)',
      target({ kind: 'webhook', topic: '', url: `https://h/hook?token=${PASSWORD}` }),
    ],
    ['a javascript: URL', target({ url: 'javascript:alert(1)' })],
    ['a reserved ntfy topic', target({ topic: 'v1' })],
    ['a topic with a newline', target({ topic: 'gpu\nalerts' })],
  ])('the host refuses %s in facts and a sentence without the secret', (_, t) => {
    const why = checkTargetSetting(t);
    if (why === null) throw new Error('not refused');
    expect(JSON.stringify(why)).not.toContain(PASSWORD);
    expect(forwardWordsEnglish(why)).not.toContain(PASSWORD);
  });
});

describe('the window’s secret', () => {
  it('the contract refuses a token of 3000 characters and unknown parts', () => {
    expect(check(ARG_SCHEMAS['forward:secret'], ['phone', { token: 'x'.repeat(3000) }]).ok).toBe(false);
    expect(check(ARG_SCHEMAS['forward:secret'], ['phone', { cookie: 'x' }]).ok).toBe(false);
    expect(check(ARG_SCHEMAS['forward:secret'], ['__proto__', { token: 'x' }]).ok).toBe(false);
  });

  it.each([
    ['ntfy', { url: `https://hooks.example/${PASSWORD}` }],
    ['ntfy', { user: 'a:b', password: PASSWORD }],
    ['ntfy', { password: PASSWORD }],
    ['slack', { url: `javascript:${PASSWORD}` }],
    ['discord', { url: `https://x:${PASSWORD}@discord.com/api/webhooks/1/a` }],
    ['webhook', { token: PASSWORD }],
  ] as const)('refuses a %s secret of the wrong shape without repeating it', (kind, secret) => {
    const why = checkSecretInput('phone', kind, secret as ForwardSecretInput);
    if (why === null) throw new Error('not refused');
    expect(JSON.stringify(why)).not.toContain(PASSWORD);
    expect(forwardWordsEnglish(why)).not.toContain(PASSWORD);
  });

  it('main refuses a malformed invoke before the vault or the host sees it', async () => {
    const touched: string[] = [];
    const secrets = new ShellSecrets(
      {
        load: () => ({ secrets: {}, problems: [] }),
        unavailable: () => null,
        set: () => {
          touched.push('set');
          return { ok: true };
        },
        remove: () => {
          touched.push('remove');
          return { ok: true };
        },
      },
      {
        invoke: async () => {
          touched.push('invoke');
          return { ok: true, json: '{"targets":[],"status":[]}' };
        },
        setSecrets: () => touched.push('setSecrets'),
      },
      () => undefined,
    );
    const reply = await secrets.invoke('forward:secret', ['phone', { token: PASSWORD, extra: 1 }]);
    expect(reply.ok).toBe(false);
    expect(JSON.stringify(reply)).not.toContain(PASSWORD);
    expect(touched).toEqual([]);
  });
});

describe('the shell’s secrets message', () => {
  it.each([
    [
      '17 targets',
      {
        type: 'secrets',
        secrets: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`t${i}`, { token: 'x' }])),
      },
    ],
    ['a prototype id', JSON.parse('{"type":"secrets","secrets":{"__proto__":{"token":"x"}}}')],
    ['an unknown part', { type: 'secrets', secrets: { phone: { cookie: 'x' } } }],
    ['an extra field', { type: 'secrets', secrets: {}, echo: true }],
  ])('the host drops one with %s', (_, message) => {
    expect(Value.Check(SHELL_MESSAGE_SCHEMA, message)).toBe(false);
  });
});

describe('node conditions that claim to be GPU health signals', () => {
  it('keeps at most 8, one line each, however many and however long', () => {
    const conditions = Array.from({ length: 10_000 }, (_, i) => ({
      type: 'GpuXidError',
      status: 'True',
      reason: `R${i}\u202e${'r'.repeat(1000)}`,
      message: `${'m'.repeat(100_000)}\n\u0007`,
    }));
    const facts = trimNode({ metadata: { name: 'n' }, status: { conditions } });
    expect(facts?.health).toHaveLength(8);
    expect(JSON.stringify(facts?.health).length).toBeLessThan(8 * 400);
    for (const h of facts?.health ?? []) {
      const words = `${h.reason}${h.message}`;
      expect(words).not.toMatch(/[\n\u202e]/);
      expect(words).not.toContain(String.fromCharCode(7));
    }
  });

  it('a condition type of a megabyte is not kept', () => {
    const facts = trimNode({
      metadata: { name: 'n' },
      status: { conditions: [{ type: `Gpu${'x'.repeat(1 << 20)}Watch`, status: 'True' }] },
    });
    expect(facts?.health).toEqual([]);
  });
});
