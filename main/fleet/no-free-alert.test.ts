/**
 * The optional no-free-GPU alert through the engine against the sim over real HTTPS: the small lab's
 * A30 MIG slices taken by a bound pod raise it after the hold-down, the pod deleted recovers it; a user
 * who may not list pods never raises it; off by default. Engine time is a ManualClock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type AlertRules, DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import { ContextClient } from '../kube/context-client.ts';
import { FleetEngine } from './engine.ts';

const sims: SimContext[] = [];
let engine: FleetEngine | null = null;
afterEach(async () => {
  engine?.stop();
  engine = null;
  await Promise.all(sims.splice(0).map((s) => s.cleanup()));
});

const A30 = 'A30 MIG 1g.6gb';

async function start(context: string, rules: Partial<AlertRules>) {
  const env = await startSimContext({ scenario: 'smalllab:3600000' });
  sims.push(env);
  const clock = new ManualClock();
  const e = new FleetEngine({ clock, rules: { ...DEFAULT_ALERT_RULES, holdDownMs: 30_000, ...rules } });
  engine = e;
  const alerts: PolicyAlert[] = [];
  e.on((ev) => {
    if (ev.type === 'alert' && (ev.alert.kind === 'no-free-gpu' || ev.alert.kind === 'free-gpu-back'))
      alerts.push(ev.alert);
  });
  e.setContexts([env.context(context)]);
  const free = () => e.snapshot().contexts[0]?.free;
  const a30 = () => free()?.products.find((p) => p.label === A30)?.free;
  const until = (check: () => boolean, what: string) =>
    pollUntil(check, what, { each: () => clock.advance(0) });
  return { env, clock, alerts, free, a30, until };
}

const json = { 'Content-Type': 'application/json', Accept: 'application/json' };

describe('the no-free-GPU alert in the engine', () => {
  it('the A30 slices all taken: alerted after the hold-down; the pod deleted: free again', async () => {
    const { env, clock, alerts, a30, until } = await start('sim-admin', { noFreeGpu: true });
    await until(() => a30() === 3, 'the pods list');
    const client = new ContextClient(env.context('sim-admin'));
    try {
      const made = await client.request('POST', '/api/v1/namespaces/research/pods', {
        headers: json,
        body: JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'take-all', namespace: 'research' },
          spec: {
            nodeName: 'lab-a30',
            containers: [{ name: 'c', image: 'cuda', resources: { limits: { 'nvidia.com/gpu': '3' } } }],
          },
        }),
      });
      expect(made.status).toBe(201);
      await until(() => a30() === 0, 'the bound pod');
      clock.advance(29_000);
      expect(alerts).toEqual([]);
      clock.advance(1_000);
      await until(() => alerts.length === 1, 'the alert after the hold-down');
      expect(alerts[0]).toMatchObject({
        kind: 'no-free-gpu',
        context: 'sim-admin',
        title: `sim-admin: no free ${A30}`,
        words: { kind: 'no-free-gpu', product: A30, allocatable: 4 },
      });
      const gone = await client.request('DELETE', '/api/v1/namespaces/research/pods/take-all', {
        headers: json,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 }),
      });
      expect(gone.status).toBe(200);
      await until(() => alerts.length === 2, 'the recovery');
      expect(alerts[1]).toMatchObject({ kind: 'free-gpu-back', before: 0, after: 3 });
    } finally {
      client.close();
    }
    // The products full from the start (the L4, the A100's 3g.20gb) were taken as known: never alerted.
    expect(alerts.map((a) => a.words?.kind === 'no-free-gpu' && a.words.product)).toEqual([A30, false]);
  });

  it('a user who may not list pods never raises it', async () => {
    const { clock, alerts, free, until } = await start('sim-nodesonly', { noFreeGpu: true });
    await until(() => free()?.reason === 'forbidden', 'the forbidden pods list');
    for (let i = 0; i < 10; i++) clock.advance(60_000);
    expect(alerts).toEqual([]);
  });

  it('off by default', () => {
    expect(DEFAULT_ALERT_RULES.noFreeGpu).toBe(false);
  });
});
