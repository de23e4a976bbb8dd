import { render, screen } from '@testing-library/svelte';
import { afterEach, expect, it } from 'vitest';
import type { FleetApi } from '../common/ipc.ts';
import App from './App.svelte';

afterEach(() => {
  delete window.fleet;
});

it('shows the version the host reports', async () => {
  const api: FleetApi = {
    invoke: (async () => ({
      version: '1.2.3',
      mode: 'electron',
      demo: false,
      noKubeconfig: false,
      notices: [],
    })) as FleetApi['invoke'],
    on: () => () => undefined,
  };
  window.fleet = api;
  render(App);
  expect(await screen.findByTestId('version')).toHaveProperty('textContent', 'v1.2.3 · electron');
});

it('says so when no host is connected', async () => {
  render(App);
  expect((await screen.findByRole('alert')).textContent).toMatch(/not connected/);
});
