/**
 * DCGM telemetry through the engine against the sim's home lab (omen2 runs the one exporter with a pod
 * IP): the node detail shows live utilisation and temperature; an injected XID 79 raises exactly one
 * notification naming the node, the GPU and what XID 79 means; a read-only user sees "forbidden:
 * pods/proxy" once, and the rest of the detail still shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import { FleetEngine } from './engine.ts';

let sc: SimContext;
let engine: FleetEngine;
const clock = new ManualClock(Date.now());
const alerts: PolicyAlert[] = [];

const settle = async () => {
  for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
};

beforeAll(async () => {
  sc = await startSimContext({ scenario: 'homelab' });
  // Background off: every scrape here is one the test asks for (the budget has its own tests).
  engine = new FleetEngine({
    clock,
    // The admin and read-only contexts reach one cluster; kept apart here to scrape with each one's rights.
    mergeSameCluster: () => false,
    telemetry: () => ({ background: 'off', autoMaxGpuNodes: 200, budgetPerMinute: 20 }),
  });
  engine.on((e) => {
    if (e.type === 'alert') alerts.push(e.alert);
  });
  engine.setContexts([sc.context('sim-admin'), sc.context('sim-readonly')]);
  for (let i = 0; i < 250 && engine.snapshot().contexts.some((c) => c.inventory === null); i++)
    await new Promise((r) => setTimeout(r, 20));
});
afterAll(async () => {
  engine?.stop();
  await sc?.cleanup();
});

describe('telemetry in the node detail', () => {
  it('shows live utilisation and temperature of omen2 GPU 0, and follows the exporter', async () => {
    sc.sim.control.setGpuUtilization('omen2', 0, 73);
    sc.sim.control.setGpuTemperature('omen2', 0, 64);
    const d = await engine.nodeDetail('sim-admin', 'omen2');
    expect(d.telemetry?.state).toBe('ok');
    const g = d.telemetry?.state === 'ok' ? d.telemetry.gpus[0] : undefined;
    expect(g).toMatchObject({
      index: 0,
      model: 'NVIDIA GeForce RTX 4070 SUPER',
      utilPercent: 73,
      temperatureC: 64,
      memoryTotalMiB: 12_282,
      xid: null,
    });
    expect(g?.uuid).toMatch(/^GPU-[0-9a-f-]{36}$/);
    sc.sim.control.setGpuTemperature('omen2', 0, 70);
    clock.advance(10_000);
    const again = await engine.nodeDetail('sim-admin', 'omen2');
    const g2 = again.telemetry?.state === 'ok' ? again.telemetry.gpus[0] : undefined;
    expect(g2?.temperatureC).toBe(70);
    expect(g2?.history.map((p) => p.temp)).toEqual([64, 70]);
  });

  it('a node whose exporter has no pod IP says so in one sentence', async () => {
    const d = await engine.nodeDetail('sim-admin', 'nuc1');
    expect(d.telemetry).toMatchObject({
      state: 'unavailable',
      message: 'the exporter pod has no reachable pod IP (address not allowed)',
    });
  });

  it('an injected XID 79 raises exactly one alert naming the node, the GPU and its meaning', async () => {
    alerts.length = 0;
    sc.sim.control.setGpuXid('omen2', 0, 79);
    for (let i = 0; i < 4; i++) {
      clock.advance(10_000);
      await engine.nodeDetail('sim-admin', 'omen2');
    }
    await settle();
    const xid = alerts.filter((a) => a.kind === 'gpu-xid');
    expect(xid).toHaveLength(1);
    expect(xid[0]?.nodes).toEqual(['omen2']);
    expect(xid[0]?.title).toBe('sim-admin: XID 79 on omen2');
    expect(xid[0]?.body).toMatch(
      /^omen2 GPU 0 \(NVIDIA GeForce RTX 4070 SUPER, GPU-[0-9a-f-]+\): XID 79: GPU has fallen off the bus/,
    );
    const d = await engine.nodeDetail('sim-admin', 'omen2');
    const g = d.telemetry?.state === 'ok' ? d.telemetry.gpus[0] : undefined;
    expect(g?.xid).toBe(79);
    expect(g?.xidMeaning).toMatch(/^GPU has fallen off the bus/);
    sc.sim.control.setGpuXid('omen2', 0, 0);
  });

  it('the overview snapshot carries the hottest GPU', async () => {
    await settle();
    const s = engine.snapshot().contexts.find((c) => c.context === 'sim-admin');
    expect(s?.telemetry?.hottest).toMatchObject({ node: 'omen2', index: 0 });
  });

  it('names the model telemetry reports for omen2, whose GPU labels are gone', async () => {
    await settle();
    const s = engine.snapshot().contexts.find((c) => c.context === 'sim-admin');
    const omen2 = s?.inventory?.nodes.find((n) => n.name === 'omen2');
    expect(omen2?.product).toBeNull();
    expect(s?.telemetry?.models).toEqual([{ node: 'omen2', model: 'NVIDIA GeForce RTX 4070 SUPER' }]);
  });

  it('a read-only user sees "forbidden: pods/proxy", once, and the rest of the detail', async () => {
    sc.sim.control.resetRequestLog();
    const d = await engine.nodeDetail('sim-readonly', 'omen2');
    expect(d.telemetry).toMatchObject({ state: 'unavailable', message: 'forbidden: pods/proxy' });
    expect(d.pods.length).toBeGreaterThan(0);
    expect(d.conditions.some((c) => c.type === 'Ready')).toBe(true);
    for (const node of ['omen2', 'nuc1', 'omen']) {
      clock.advance(10_000);
      const again = await engine.nodeDetail('sim-readonly', node);
      expect(again.telemetry).toMatchObject({ state: 'unavailable', message: 'forbidden: pods/proxy' });
    }
    const proxied = sc.sim.control.requestLog().filter((e) => e.path.includes('/proxy/'));
    expect(proxied).toHaveLength(1);
    expect(proxied[0]?.status).toBe(403);
  });
});
