/** The engine over real HTTPS against the sim: alert decisions and context changes. */
import { afterEach, expect, it } from 'vitest';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { DEFAULT_ALERT_RULES } from '../alerts/rules.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import { FleetEngine } from './engine.ts';

const sims: SimContext[] = [];
let engine: FleetEngine | null = null;
afterEach(async () => {
  engine?.stop();
  engine = null;
  await Promise.all(sims.splice(0).map((s) => s.cleanup()));
});

const until = async (check: () => boolean, ms = 5000) => {
  for (let t = 0; t < ms && !check(); t += 10) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

it('decides a ready-drop alert within one throttle pass of the flip (hold-down 0)', async () => {
  const env = await startSimContext({ scenario: 'homelab' });
  sims.push(env);
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) env.sim.control.setNodeReady(n, 'True');
  const alerts: PolicyAlert[] = [];
  engine = new FleetEngine({ rules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0 } });
  engine.on((e) => e.type === 'alert' && alerts.push(e.alert));
  engine.setContexts([env.context('sim-admin')]);
  await until(() => engine?.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4);
  await new Promise((r) => setTimeout(r, 150)); // past the throttle window: the next flip is a leading edge
  env.sim.control.setNodeReady('omen2', 'False');
  await until(() => alerts.length === 1);
  expect(alerts[0]).toMatchObject({ kind: 'ready-drop', nodes: ['omen2'], before: 4, after: 3 });
});

it('raises no ready-drop when a context is pointed at another cluster', async () => {
  const a = await startSimContext({ scenario: 'homelab' });
  const b = await startSimContext({ scenario: 'large:12' });
  sims.push(a, b);
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) a.sim.control.setNodeReady(n, 'True');
  const alerts: PolicyAlert[] = [];
  engine = new FleetEngine({ rules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0 } });
  engine.on((e) => e.type === 'alert' && alerts.push(e.alert));
  engine.setContexts([a.context('sim-admin')]);
  await until(() => engine?.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4);
  // The user edits the kubeconfig: same context name, another server.
  engine.setContexts([b.context('sim-admin')]);
  await until(
    () => engine?.snapshot().contexts[0]?.inventory?.nodes.some((n) => n.name.startsWith('nuc')) === false,
  );
  await new Promise((r) => setTimeout(r, 300));
  expect(alerts.filter((x) => x.kind === 'ready-drop')).toEqual([]);
});
