import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { createFakeFleet } from '../fixtures/fake-fleet.ts';
import { fleet } from '../fixtures/homelab.ts';
import { i18n } from '../i18n/i18n.svelte.ts';
import { ForwardingStore } from '../state/forwarding.svelte.ts';
import SettingsForwarding from './SettingsForwarding.svelte';

const TARGET = {
  id: 'ntfy-1',
  kind: 'ntfy',
  host: 'http://127.0.0.1:8090',
  clusters: 'all',
  minSeverity: 'low',
  language: 'en',
  enabled: true,
} as const;

it('lists the targets with their delivery state and sends a test on request', async () => {
  const fake = createFakeFleet(fleet([]), {
    forwarding: {
      targets: [TARGET],
      status: [
        {
          id: 'ntfy-1',
          pending: 2,
          dropped: 1,
          problem: 'ntfy http://127.0.0.1:8090: connection refused; retrying in 4 s',
          lastDeliveredAt: null,
        },
      ],
    },
  });
  render(SettingsForwarding, { forwarding: new ForwardingStore(fake.api) });
  const row = await screen.findByTestId('forward-ntfy-1');
  expect(row.textContent).toContain('http://127.0.0.1:8090');
  expect(row.textContent).toContain('2 waiting, 1 dropped (queue full)');
  expect(row.textContent).toContain('connection refused; retrying in 4 s');
  await fireEvent.click(screen.getByTestId('forward-test-ntfy-1'));
  await waitFor(() =>
    expect(screen.getByTestId('forward-result-ntfy-1').textContent).toBe(
      'ntfy http://127.0.0.1:8090: test message delivered.',
    ),
  );
  expect(fake.calls.filter((c) => c.channel === 'forward:test').map((c) => c.args)).toEqual([['ntfy-1']]);
});

it('says how to start forwarding when there is no target', async () => {
  render(SettingsForwarding, { forwarding: new ForwardingStore(createFakeFleet(fleet([])).api) });
  expect((await screen.findByTestId('forwarding')).textContent).toContain('No forwarding targets.');
});

describe('the desktop form', () => {
  const TOKEN = 'tk_windowplantedplantedplanted01';
  const desktop = () =>
    createFakeFleet(fleet([]), { forwarding: { targets: [], status: [], editable: [], secretSet: [] } });

  it('adds a target, sets its token write-only, and keeps no copy of the token in the page', async () => {
    const fake = desktop();
    render(SettingsForwarding, { forwarding: new ForwardingStore(fake.api) });
    expect((await screen.findByTestId('forwarding')).textContent).toContain('No forwarding targets yet.');
    await fireEvent.input(screen.getByTestId('forward-id'), { target: { value: 'phone' } });
    await fireEvent.input(screen.getByTestId('forward-url'), { target: { value: 'http://127.0.0.1:8090' } });
    await fireEvent.input(screen.getByTestId('forward-topic'), { target: { value: 'gpu-alerts' } });
    await fireEvent.input(screen.getByTestId('forward-clusters'), { target: { value: 'lab, lab,office' } });
    await fireEvent.click(screen.getByTestId('forward-save'));
    await screen.findByTestId('forward-phone');
    expect(fake.calls.filter((c) => c.channel === 'forward:save').map((c) => c.args)).toEqual([
      [
        {
          id: 'phone',
          kind: 'ntfy',
          url: 'http://127.0.0.1:8090',
          topic: 'gpu-alerts',
          clusters: ['lab', 'office'],
          minSeverity: 'default',
          language: 'en',
          enabled: true,
        },
      ],
    ]);
    expect(screen.getByTestId('forward-secret-state-phone').textContent?.trim()).toBe('Secret: not set');

    const field = screen.getByTestId('forward-token-phone') as HTMLInputElement;
    expect(field.type).toBe('password');
    await fireEvent.input(field, { target: { value: TOKEN } });
    await fireEvent.click(screen.getByTestId('forward-secret-save-phone'));
    await waitFor(() =>
      expect(screen.getByTestId('forward-secret-state-phone').textContent?.trim()).toBe('Secret: set'),
    );
    expect(fake.calls.filter((c) => c.channel === 'forward:secret').map((c) => c.args)).toEqual([
      ['phone', { token: TOKEN }],
    ]);
    // Handed over, then gone from the page: no field, text or attribute holds it.
    expect(field.value).toBe('');
    expect(document.body.innerHTML).not.toContain(TOKEN);

    await fireEvent.click(screen.getByTestId('forward-secret-clear-phone'));
    await waitFor(() =>
      expect(screen.getByTestId('forward-secret-state-phone').textContent?.trim()).toBe('Secret: not set'),
    );
    expect(fake.calls.at(-1)).toEqual({ channel: 'forward:secret', args: ['phone', null] });
  });

  it('refuses a URL with a password in it and a bad topic before anything is sent', async () => {
    const fake = desktop();
    render(SettingsForwarding, { forwarding: new ForwardingStore(fake.api) });
    await screen.findByTestId('forward-form');
    await fireEvent.input(screen.getByTestId('forward-id'), { target: { value: 'phone' } });
    await fireEvent.input(screen.getByTestId('forward-url'), {
      target: { value: 'https://rig:pw@ntfy.example' },
    });
    await fireEvent.input(screen.getByTestId('forward-topic'), { target: { value: 'no spaces' } });
    await fireEvent.click(screen.getByTestId('forward-save'));
    expect(screen.getByTestId('forward-url-error').textContent).toContain(
      'without a user, password or ?query',
    );
    expect(screen.getByTestId('forward-topic-error').textContent).toContain('1 to 64 letters');
    expect(fake.calls.filter((c) => c.channel === 'forward:save')).toEqual([]);
  });

  it('words a refused test in the window language from its facts', async () => {
    const fake = createFakeFleet(fleet([]), {
      forwarding: {
        targets: [TARGET],
        status: [],
        editable: [
          {
            id: 'ntfy-1',
            kind: 'ntfy',
            url: 'http://127.0.0.1:8090',
            topic: 'gpu-alerts',
            clusters: 'all',
            minSeverity: 'low',
            language: 'en',
            enabled: true,
          },
        ],
        secretSet: ['ntfy-1'],
      },
    });
    const host = 'http://127.0.0.1:8090';
    const answer = {
      ok: false,
      message: `ntfy ${host}: 403 forbidden — check the token or password, and that it may write to this topic`,
      words: { code: 'refused', kind: 'ntfy', host, status: 403, said: 'forbidden' },
    } as const;
    const invoke = fake.api.invoke;
    fake.api.invoke = ((channel: string, ...args: unknown[]) =>
      channel === 'forward:test'
        ? Promise.resolve(answer)
        : (invoke as (c: string, ...a: unknown[]) => Promise<unknown>)(channel, ...args)) as typeof invoke;
    i18n.setLanguage('ko');
    try {
      render(SettingsForwarding, { forwarding: new ForwardingStore(fake.api) });
      await fireEvent.click(await screen.findByTestId('forward-test-ntfy-1'));
      await waitFor(() =>
        expect(screen.getByTestId('forward-result-ntfy-1').textContent).toBe(
          `ntfy ${host}: 403 forbidden — 토큰이나 비밀번호, 그리고 이 토픽에 쓸 권한이 있는지 확인하세요`,
        ),
      );
      expect(screen.getByTestId('forward-secret-state-ntfy-1').textContent?.trim()).toBe('비밀 정보: 설정됨');
    } finally {
      i18n.setLanguage('en');
    }
  });

  it('refuses a secret the host would refuse in the window language, sending nothing', async () => {
    const fake = createFakeFleet(fleet([]), {
      forwarding: {
        targets: [TARGET],
        status: [],
        editable: [
          {
            id: 'ntfy-1',
            kind: 'ntfy',
            url: 'http://127.0.0.1:8090',
            topic: 'gpu-alerts',
            clusters: 'all',
            minSeverity: 'low',
            language: 'en',
            enabled: true,
          },
        ],
        secretSet: [],
      },
    });
    i18n.setLanguage('ko');
    try {
      render(SettingsForwarding, { forwarding: new ForwardingStore(fake.api) });
      await fireEvent.input(await screen.findByTestId('forward-token-ntfy-1'), { target: { value: TOKEN } });
      await fireEvent.input(screen.getByTestId('forward-user-ntfy-1'), { target: { value: 'rig' } });
      await fireEvent.click(screen.getByTestId('forward-secret-save-ntfy-1'));
      await waitFor(() =>
        expect(screen.getByTestId('forward-secret-error-ntfy-1').textContent).toBe(
          '토큰 또는 사용자와 비밀번호 중 하나만 입력하세요.',
        ),
      );
      await fireEvent.input(screen.getByTestId('forward-user-ntfy-1'), { target: { value: '' } });
      await fireEvent.input(screen.getByTestId('forward-token-ntfy-1'), { target: { value: 'tk_a\u200bb' } });
      await fireEvent.click(screen.getByTestId('forward-secret-save-ntfy-1'));
      await waitFor(() =>
        expect(screen.getByTestId('forward-secret-error-ntfy-1').textContent).toContain('보이는 ASCII'),
      );
      expect(fake.calls.filter((c) => c.channel === 'forward:secret')).toEqual([]);
    } finally {
      i18n.setLanguage('en');
    }
  });
});
