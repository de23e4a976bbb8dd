import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { createFakeFleet } from '../fixtures/fake-fleet.ts';
import { mixedFleet } from '../fixtures/homelab.ts';
import { SettingsStore } from '../state/settings.svelte.ts';
import SettingsView from './SettingsView.svelte';

async function show(reject: string | null = null) {
  const fake = createFakeFleet(mixedFleet(), { rejectUpdate: reject });
  const settings = new SettingsStore(fake.api);
  await settings.load();
  render(SettingsView, { props: { settings } });
  await screen.findByTestId('settings-form');
  return fake;
}
const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;

describe('settings', () => {
  it('shows the saved values', async () => {
    await show();
    expect(input('hold-down').value).toBe('30');
    expect(input('unreachable-after').value).toBe('60');
    expect(input('crd-group').value).toBe('gpufleet.dev');
    expect(input('monitor-homelab').checked).toBe(true);
    expect(input('monitor-workstation').checked).toBe(false);
  });

  it('explains invalid fields inline and does not send them', async () => {
    const fake = await show();
    await fireEvent.input(input('hold-down'), { target: { value: 'ten' } });
    await fireEvent.input(input('configmap-namespace'), { target: { value: 'Kube System' } });
    expect(screen.getByTestId('hold-down-error').textContent).toBe(
      'Hold-down must be a whole number of seconds.',
    );
    expect(input('hold-down').getAttribute('aria-invalid')).toBe('true');
    expect(input('hold-down').getAttribute('aria-describedby')).toContain('hold-down-error');
    expect(screen.getByTestId('configmap-namespace-error')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('settings-save'));
    expect(screen.getByTestId('settings-status').textContent).toContain('need attention');
    expect(fake.calls.some((c) => c.channel === 'settings:update')).toBe(false);
  });

  it('saves every field in one patch and shows what the host kept', async () => {
    const fake = await show();
    await fireEvent.input(input('hold-down'), { target: { value: '45' } });
    await fireEvent.input(input('unreachable-after'), { target: { value: '120' } });
    await fireEvent.click(input('monitor-workstation'));
    await fireEvent.click(input('writeback-homelab'));
    await fireEvent.click(input('withdrawn-gpus'));
    expect(input('no-free-gpu').checked).toBe(false);
    await fireEvent.click(input('no-free-gpu'));
    await fireEvent.input(input('crd-group'), { target: { value: 'gpu.example.com' } });
    await fireEvent.change(screen.getByTestId('theme'), { target: { value: 'dark' } });
    await fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(screen.getByTestId('settings-status').textContent?.trim()).toBe('Saved.'));
    expect(fake.state.settings).toMatchObject({
      monitoredContexts: ['homelab', 'office', 'workstation'],
      alertRules: { holdDownMs: 45_000, unreachableAfterMs: 120_000, withdrawnGpus: false, noFreeGpu: true },
      writeBack: { homelab: true, office: false },
      crdGroup: 'gpu.example.com',
      theme: 'dark',
    });
    expect(input('hold-down').value).toBe('45');
  });

  it("shows the host's error when it refuses the change", async () => {
    await show('context lab is not in your kubeconfig');
    await fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() =>
      expect(screen.getByTestId('settings-status').textContent?.trim()).toBe(
        'context lab is not in your kubeconfig',
      ),
    );
  });
});

describe('settings: GPU telemetry', () => {
  it('shows the saved telemetry settings and the GPU temperature limit', async () => {
    await show();
    expect(input('gpu-hot').value).toBe('85');
    expect(input('telemetry-background').value).toBe('auto');
    expect(input('telemetry-auto-max').value).toBe('200');
    expect(input('telemetry-budget').value).toBe('20');
  });

  it('refuses values out of range inline and does not send them', async () => {
    const fake = await show();
    await fireEvent.input(input('gpu-hot'), { target: { value: '200' } });
    await fireEvent.input(input('telemetry-auto-max'), { target: { value: '-1' } });
    await fireEvent.input(input('telemetry-budget'), { target: { value: '0' } });
    expect(screen.getByTestId('gpu-hot-error').textContent).toBe(
      'The GPU temperature limit must be a whole number of °C from 30 to 120.',
    );
    expect(screen.getByTestId('telemetry-auto-max-error').textContent).toBe(
      'The node limit must be a whole number from 0 to 100,000.',
    );
    expect(screen.getByTestId('telemetry-budget-error').textContent).toBe(
      'The scrape budget must be a whole number from 1 to 600.',
    );
    await fireEvent.click(screen.getByTestId('settings-save'));
    expect(fake.calls.some((c) => c.channel === 'settings:update')).toBe(false);
  });

  it('saves them with the rest of the form', async () => {
    const fake = await show();
    await fireEvent.input(input('gpu-hot'), { target: { value: '90' } });
    await fireEvent.change(screen.getByTestId('telemetry-background'), { target: { value: 'off' } });
    await fireEvent.input(input('telemetry-auto-max'), { target: { value: '50' } });
    await fireEvent.input(input('telemetry-budget'), { target: { value: '60' } });
    await fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(screen.getByTestId('settings-status').textContent?.trim()).toBe('Saved.'));
    expect(fake.state.settings).toMatchObject({
      alertRules: { gpuHotC: 90 },
      telemetry: { background: 'off', autoMaxGpuNodes: 50, budgetPerMinute: 60 },
    });
  });
});

describe('settings: inventory source per context', () => {
  it('saves the source and the controller namespace, and refuses a namespace that is not one', async () => {
    const fake = await show();
    expect((screen.getByTestId('source-homelab') as HTMLSelectElement).value).toBe('auto');
    expect(input('controller-namespace-homelab').value).toBe('gpu-fleet');
    await fireEvent.input(input('controller-namespace-homelab'), { target: { value: 'Not A Namespace' } });
    await fireEvent.click(screen.getByTestId('settings-save'));
    expect(screen.getByRole('alert').textContent).toContain('The controller namespace of homelab');
    expect(fake.calls.some((c) => c.channel === 'settings:update')).toBe(false);
    await fireEvent.input(input('controller-namespace-homelab'), { target: { value: 'ops' } });
    await fireEvent.change(screen.getByTestId('source-office'), { target: { value: 'nodes' } });
    expect(screen.queryByTestId('controller-namespace-office')).toBeNull();
    await fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(screen.getByTestId('settings-status').textContent?.trim()).toBe('Saved.'));
    expect(fake.state.settings).toMatchObject({
      source: { office: 'nodes' },
      controllerNamespace: { homelab: 'ops' },
    });
  });
});

describe('settings: contexts that reach the same cluster', () => {
  it('are merged by default, and the checkbox keeps them apart', async () => {
    const fake = await show();
    const box = screen.getByTestId('merge-same-cluster') as HTMLInputElement;
    expect(box.checked).toBe(true);
    await fireEvent.click(box);
    await fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(screen.getByTestId('settings-status').textContent?.trim()).toBe('Saved.'));
    expect(fake.state.settings.mergeSameCluster).toBe(false);
  });
});

describe('settings: the form’s parts edit the store’s draft, which they do not own as props', () => {
  it('changes the draft from every part without a Svelte ownership warning', async () => {
    const warnings: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
    });
    try {
      await show();
      await fireEvent.click(input('writeback-homelab'));
      await fireEvent.change(screen.getByTestId('source-homelab'), { target: { value: 'controller' } });
      await fireEvent.input(input('controller-namespace-homelab'), { target: { value: 'ops' } });
      await fireEvent.input(input('telemetry-auto-max'), { target: { value: '12' } });
      await fireEvent.change(screen.getByTestId('telemetry-background'), { target: { value: 'off' } });
      expect(input('controller-namespace-homelab').value).toBe('ops');
      expect(input('telemetry-auto-max').value).toBe('12');
      // The namespace field has a visible label, not only an accessible name.
      expect(input('controller-namespace-homelab').closest('label')?.textContent).toContain(
        'Lease namespace',
      );
    } finally {
      warn.mockRestore();
    }
    expect(warnings.filter((w) => w.includes('ownership_invalid_mutation'))).toEqual([]);
  });

  it('offers "launch at login" in the desktop app only', async () => {
    const fake = createFakeFleet(mixedFleet());
    const settings = new SettingsStore(fake.api);
    await settings.load();
    render(SettingsView, { props: { settings, browser: true } });
    await screen.findByTestId('settings-form');
    expect(screen.queryByTestId('launch-at-login')).toBeNull();
  });
});
