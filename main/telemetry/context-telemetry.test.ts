/** One context's telemetry against the sim: a scrape that times out is one sentence and backs off. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { ContextClient } from '../kube/context-client.ts';
import { BACKGROUND_MIN_MS, ContextTelemetry, type TelemetryReading } from './context-telemetry.ts';
import { SCRAPE_TIMEOUT_MS } from './requests.ts';

let sc: SimContext;
beforeAll(async () => {
  sc = await startSimContext({ scenario: 'homelab' });
});
afterAll(async () => {
  await sc?.cleanup();
});

const turns = async (until: () => boolean) => {
  for (let i = 0; i < 100_000 && !until(); i++) await new Promise((r) => setImmediate(r));
};

describe('ContextTelemetry', () => {
  it('a scrape that times out is one sentence, and the pod is left alone until its backoff ends', async () => {
    const clock = new ManualClock(Date.now());
    const readings: TelemetryReading[] = [];
    const t = new ContextTelemetry('sim-admin', clock, (r) => readings.push(r));
    const client = new ContextClient(sc.context('sim-admin'), { clock });
    try {
      expect((await t.onDemand('omen2', client)).state).toBe('ok');
      sc.sim.control.setLatency(3_000);
      const timedOut = async () => {
        const step = t.backgroundStep(['omen2'], client);
        await turns(() => clock.pending > 0);
        clock.advance(SCRAPE_TIMEOUT_MS);
        expect(await step).toBe('omen2');
      };
      clock.advance(BACKGROUND_MIN_MS);
      await timedOut();
      expect(t.view('omen2')).toMatchObject({
        state: 'unavailable',
        message: expect.stringMatching(/did not answer in time/),
      });
      expect(readings.at(-1)?.gpus).toBeNull();
      // The first failure waits 60 s, the second 120 s.
      clock.advance(60_000);
      await timedOut();
      sc.sim.control.setLatency(0);
      sc.sim.control.resetRequestLog();
      clock.advance(60_000);
      expect(await t.backgroundStep(['omen2'], client)).toBeNull();
      expect(sc.sim.control.requestLog()).toEqual([]);
      clock.advance(60_000);
      expect(await t.backgroundStep(['omen2'], client)).toBe('omen2');
      expect(t.view('omen2')?.state).toBe('ok');
    } finally {
      sc.sim.control.setLatency(0);
      client.close();
    }
  });

  it('a node the discovery found no exporter for costs no scrape', async () => {
    const clock = new ManualClock(Date.now());
    const t = new ContextTelemetry('sim-admin', clock, () => {});
    const client = new ContextClient(sc.context('sim-admin'), { clock });
    try {
      await t.onDemand('omen2', client);
      sc.sim.control.resetRequestLog();
      expect(await t.onDemand('cpu1', client)).toMatchObject({
        state: 'unavailable',
        message: 'not available — no DCGM exporter',
      });
      expect(sc.sim.control.requestLog()).toEqual([]);
    } finally {
      client.close();
    }
  });

  // Last: it takes omen2's only GPU off the exporter for the rest of the file.
  it("an exporter that lists no GPU any more is a reading of zero GPUs (gpu-gone's input), not a failure", async () => {
    const clock = new ManualClock(Date.now());
    const readings: TelemetryReading[] = [];
    const t = new ContextTelemetry('sim-admin', clock, (r) => readings.push(r));
    const client = new ContextClient(sc.context('sim-admin'), { clock });
    try {
      expect((await t.onDemand('omen2', client)).state).toBe('ok');
      // The exporter now answers 200 with its HELP and TYPE lines and no sample: the GPU fell off the bus.
      sc.sim.control.removeGpu('omen2', 0);
      clock.advance(BACKGROUND_MIN_MS);
      expect(await t.backgroundStep(['omen2'], client)).toBe('omen2');
      expect(t.view('omen2')).toMatchObject({ state: 'ok' });
      expect(readings.at(-1)?.gpus).toEqual([]);
    } finally {
      client.close();
    }
  });
});
