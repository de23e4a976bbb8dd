import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { createFakeFleet } from '../fixtures/fake-fleet.ts';
import { fleet } from '../fixtures/homelab.ts';
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
