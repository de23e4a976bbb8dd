import { render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { NodeTelemetry } from '../../../common/telemetry.ts';
import { NOW } from '../../fixtures/homelab.ts';
import DetailTelemetry from './DetailTelemetry.svelte';

const ok: NodeTelemetry = {
  state: 'ok',
  scrapedAt: new Date(NOW - 5_000).toISOString(),
  gpus: [
    {
      index: 0,
      uuid: 'GPU-5c1f0a2e-1111-2222-3333-444455556666',
      model: 'NVIDIA GeForce RTX 4070 SUPER',
      utilPercent: 73,
      temperatureC: 64,
      powerW: 171.3,
      memoryUsedMiB: 7_000,
      memoryTotalMiB: 12_282,
      xid: 79,
      xidMeaning: 'from main',
      history: [
        { at: NOW - 20_000, util: 50, temp: 60 },
        { at: NOW - 10_000, util: 73, temp: 64 },
      ],
    },
  ],
};

describe('DCGM telemetry in the node detail', () => {
  it('shows each GPU with utilisation, temperature, power, memory, the XID and its meaning, and a sparkline', () => {
    render(DetailTelemetry, { props: { telemetry: ok, now: NOW } });
    const gpu = screen.getByTestId('telemetry-gpu');
    expect(gpu.textContent).toContain('GPU 0');
    expect(gpu.textContent).toContain('NVIDIA GeForce RTX 4070 SUPER');
    const facts = within(gpu).getByTestId('telemetry-facts').textContent ?? '';
    expect(facts).toContain('73 %');
    expect(facts).toContain('64 °C');
    expect(facts).toContain('171.3 W');
    expect(facts).toContain('7,000 / 12,282 MiB');
    expect(facts).toContain('XID 79: GPU has fallen off the bus');
    const spark = within(gpu).getByTestId('gpu-sparkline');
    expect(spark.querySelector('path.util')?.getAttribute('d')).toBe('M0.0,12.0L120.0,6.5');
  });

  it('says in one sentence why there is no reading', () => {
    render(DetailTelemetry, {
      props: {
        telemetry: { state: 'unavailable', message: 'forbidden: pods/proxy', scrapedAt: null },
        now: NOW,
      },
    });
    expect(screen.getByTestId('telemetry-unavailable').textContent).toBe(
      'GPU telemetry: forbidden: pods/proxy',
    );
  });
});
