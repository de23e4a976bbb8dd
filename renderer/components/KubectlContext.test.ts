import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { createFakeFleet } from '../fixtures/fake-fleet.ts';
import { fleet } from '../fixtures/homelab.ts';
import { i18n } from '../i18n/i18n.svelte.ts';
import { KubectlStore } from '../state/kubectl.svelte.ts';
import KubectlContext from './KubectlContext.svelte';

async function setup() {
  const fake = createFakeFleet(fleet([]));
  const kubectl = new KubectlStore(fake.api);
  await kubectl.start();
  render(KubectlContext, { kubectl });
  const select = () => screen.getByTestId('kubectl-context-select') as HTMLSelectElement;
  return { fake, select };
}

it('shows the current kubectl context, and switches on a pick', async () => {
  const { fake, select } = await setup();
  expect(select().value).toBe('homelab');
  expect([...select().options].map((o) => o.value)).toEqual(['homelab', 'office', 'workstation']);
  await fireEvent.change(select(), { target: { value: 'office' } });
  await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Switched kubectl to office.'));
  expect(fake.calls.filter((c) => c.channel === 'kubectl:use-context')).toEqual([
    { channel: 'kubectl:use-context', args: ['office'] },
  ]);
  expect(select().value).toBe('office');
});

it('follows a push (the kubeconfig was re-read or switched from the tray)', async () => {
  const { fake, select } = await setup();
  fake.emit('kubectl:contexts', {
    current: 'workstation',
    contexts: ['homelab', 'workstation'],
    more: 3,
    error: null,
  });
  await waitFor(() => expect(select().value).toBe('workstation'));
  expect(select().options).toHaveLength(2);
  expect(screen.getByTestId('kubectl-context').textContent).toContain('+3 more not listed');
});

it('shows a refusal in words and the context that is still current', async () => {
  const { fake, select } = await setup();
  fake.emit('kubectl:contexts', { current: 'homelab', contexts: ['homelab', 'ghost'], more: 0, error: null });
  await waitFor(() => expect(select().options).toHaveLength(2));
  await fireEvent.change(select(), { target: { value: 'ghost' } });
  await waitFor(() =>
    expect(screen.getByRole('status').textContent).toBe(
      'There is no context named "ghost" in the kubeconfig.',
    ),
  );
  expect(select().value).toBe('homelab');
});

it('offers "not set" when the kubeconfig names no current context, and a hostile name as clean text', async () => {
  const { fake, select } = await setup();
  fake.emit('kubectl:contexts', {
    current: null,
    contexts: ['evil\u001b]0;x\u0007name'],
    more: 0,
    error: null,
  });
  await waitFor(() => expect(select().value).toBe(''));
  expect([...select().options].map((o) => o.textContent)).toEqual(['not set', 'evilname']);
  expect(select().options[1]?.value).toBe('evil\u001b]0;x\u0007name');
});

it("speaks the window's language, switching without a reload", async () => {
  const { fake } = await setup();
  fake.emit('kubectl:contexts', { current: null, contexts: ['a'], more: 2, error: null });
  i18n.setLanguage('zh-CN');
  try {
    await waitFor(() =>
      expect(screen.getByTestId('kubectl-context').textContent).toContain('kubectl 上下文'),
    );
    expect(screen.getByTestId('kubectl-context').textContent).toContain('另有 2 个未列出');
    expect(screen.getByRole('option', { name: '未设置' })).toBeTruthy();
  } finally {
    i18n.setLanguage('en');
  }
});

it('shows nothing while there are no contexts', async () => {
  const { fake } = await setup();
  fake.emit('kubectl:contexts', { current: null, contexts: [], more: 0, error: null });
  await waitFor(() => expect(screen.queryByTestId('kubectl-context')).toBeNull());
});
