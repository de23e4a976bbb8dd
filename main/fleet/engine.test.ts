/**
 * The engine over real HTTPS against the sim: alert decisions and context changes. Engine time is a
 * ManualClock: the tests wait (on real time, capped) only for the sim's answers, and move engine time
 * themselves, so "within one throttle pass" means no engine time passed at all.
 */
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import type { FleetSnapshot } from '../../common/fleet.ts';
import { DEFAULT_CONTROLLER_NAMESPACE, DEFAULT_CRD_GROUP } from '../../common/settings.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';
import { FleetEngine } from './engine.ts';

const sims: SimContext[] = [];
let engine: FleetEngine | null = null;
afterEach(async () => {
  engine?.stop();
  engine = null;
  await Promise.all(sims.splice(0).map((s) => s.cleanup()));
});

/** Waits for the sim's answers; runs the engine's zero-delay hand-offs as they fall due, no more. */
const until = (clock: ManualClock, check: () => boolean, what: string) =>
  pollUntil(check, what, { each: () => clock.advance(0) });

it('decides a ready-drop alert at the leading edge of the throttle after the flip (hold-down 0)', async () => {
  const env = await startSimContext({ scenario: 'homelab' });
  sims.push(env);
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) env.sim.control.setNodeReady(n, 'True');
  const clock = new ManualClock();
  const alerts: PolicyAlert[] = [];
  const e = new FleetEngine({ clock, rules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0 } });
  engine = e;
  e.on((ev) => ev.type === 'alert' && alerts.push(ev.alert));
  e.setContexts([env.context('sim-admin')]);
  await until(clock, () => e.snapshot().contexts[0]?.connection.phase === 'live', 'the watch');
  await until(clock, () => e.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4, 'the first list');
  clock.advance(150);
  expect(alerts).toEqual([]);
  const before = clock.now();
  env.sim.control.setNodeReady('omen2', 'False');
  await until(clock, () => alerts.length > 0, 'the alert');
  expect(clock.now()).toBe(before); // decided without waiting for any timer
  expect(alerts).toHaveLength(1);
  expect(alerts[0]).toMatchObject({ kind: 'ready-drop', nodes: ['omen2'], before: 4, after: 3 });

  // Once the throttle has run, a flip after its window is again a leading edge.
  clock.advance(150);
  const later = clock.now();
  env.sim.control.setNodeReady('nuc1', 'False');
  await until(clock, () => alerts.length > 1, 'the second alert');
  expect(clock.now()).toBe(later);
  expect(alerts[1]).toMatchObject({ kind: 'ready-drop', nodes: ['nuc1'], before: 3, after: 2 });
});

it('raises no ready-drop when a context is pointed at another cluster', async () => {
  const a = await startSimContext({ scenario: 'homelab' });
  const b = await startSimContext({ scenario: 'large:12' });
  sims.push(a, b);
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) a.sim.control.setNodeReady(n, 'True');
  const clock = new ManualClock();
  const alerts: PolicyAlert[] = [];
  const e = new FleetEngine({ clock, rules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0 } });
  engine = e;
  e.on((ev) => ev.type === 'alert' && alerts.push(ev.alert));
  e.setContexts([a.context('sim-admin')]);
  await until(clock, () => e.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4, 'the first list');
  // The user edits the kubeconfig: same context name, another server.
  e.setContexts([b.context('sim-admin')]);
  await until(
    clock,
    () => e.snapshot().contexts[0]?.inventory?.nodes.some((n) => n.name.startsWith('nuc')) === false,
    "the other cluster's nodes",
  );
  // Compared with the old cluster, its four ready nuc/omen nodes are gone: without forgetting, a drop.
  // Let every timer the policy could have set run out (hold-down 0; re-checks within seconds).
  for (let i = 0; i < 10; i++) clock.advance(1000);
  expect(alerts.filter((x) => x.kind === 'ready-drop')).toEqual([]);
});

it('keeps what a node last had through a relist (410), for the nodes the relist still has', async () => {
  const env = await startSimContext({ scenario: 'homelab' });
  sims.push(env);
  const clock = new ManualClock();
  // Only the node watch: failNext must hit its request, not the pods watch's of free GPUs.
  const e = new FleetEngine({ clock, freeGpus: () => false });
  engine = e;
  const nuc1 = () => e.snapshot().contexts[0]?.inventory?.nodes.find((n) => n.name === 'nuc1');
  e.setContexts([env.context('sim-admin')]);
  await until(clock, () => e.snapshot().contexts[0]?.connection.phase === 'live', 'the watch');
  const product = nuc1()?.product;
  expect(product).toBe('NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED');
  // GPU feature discovery dies on nuc1: its product labels go, the node stays.
  env.sim.control.setNodeLabels('nuc1', {
    'nvidia.com/gpu.product': null,
    'nvidia.com/gpu.count': null,
    'nvidia.com/gpu.memory': null,
  });
  await until(clock, () => nuc1()?.product === null, 'the unlabeled node');
  expect(nuc1()?.last_seen).toMatchObject({ product, count: 1, memory: 8188 });

  const lists = () =>
    env.sim.control
      .requestLog()
      .filter((r) => r.method === 'GET' && /^\/api\/v1\/nodes(\?(?!.*watch=)|$)/.test(r.path)).length;
  const listed = lists();
  clock.advance(2000); // the watch has lasted: its end is not a failure
  env.sim.control.failNext(1, 410);
  await env.sim.control.restart();
  // Virtual time moves with the polls here: the re-watch waits on the (virtual) backoff.
  await pollUntil(
    () => lists() > listed && e.snapshot().contexts[0]?.connection.phase === 'live',
    'the relist',
    {
      each: () => clock.advance(100),
    },
  );
  // The relist may change nothing: the next change then rebuilds the inventory from what it kept.
  env.sim.control.setNodeReady('omen2', 'True');
  await until(clock, () => e.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 1, 'the next change');
  expect(nuc1()?.product).toBeNull();
  expect(nuc1()?.last_seen).toMatchObject({ product, count: 1, memory: 8188 });
});

it('three contexts on one cluster are one watch, one card naming them, and one alert per drop', async () => {
  const env = await startSimContext({ scenario: 'homelab' });
  sims.push(env);
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) env.sim.control.setNodeReady(n, 'True');
  const clock = new ManualClock();
  const alerts: PolicyAlert[] = [];
  const e = new FleetEngine({ clock, rules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0 } });
  engine = e;
  e.on((ev) => ev.type === 'alert' && alerts.push(ev.alert));
  // The sim's three contexts: one server and CA, three users.
  e.setContexts(['sim-admin', 'sim-readonly', 'sim-revocable'].map((n) => env.context(n)));
  await until(clock, () => e.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4, 'the first list');
  const cards = e.snapshot().contexts;
  expect(cards.map((c) => [c.context, c.sameCluster])).toEqual([
    ['sim-admin', ['sim-readonly', 'sim-revocable']],
  ]);
  const lists = env.sim.control.requestLog().filter((r) => /^\/api\/v1\/nodes\?limit=/.test(r.path));
  expect(lists.map((r) => r.user)).toEqual(['sim-admin']);
  env.sim.control.setNodeReady('omen2', 'False');
  await until(clock, () => alerts.length > 0, 'the alert');
  clock.advance(60_000);
  expect(alerts.map((a) => [a.kind, a.context])).toEqual([['ready-drop', 'sim-admin']]);
  // Any of the names reaches the one card.
  expect(e.focus('sim-revocable')).toBe(true);
  expect(e.snapshot().focused).toBe('sim-admin');
});

/** The context `ctx` of the sim, renamed and pointed at another address of the same cluster. */
const at = (ctx: ResolvedContext, name: string, server: string): ResolvedContext => {
  const cluster = ctx.cluster as NonNullable<ResolvedContext['cluster']>;
  return { ...ctx, name, cluster: { ...cluster, cluster: { ...cluster.cluster, server } } };
};

it('two addresses of one cluster (same kube-system uid) are one card and one alert per drop', async () => {
  const env = await startSimContext({ scenario: 'homelab' });
  sims.push(env);
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) env.sim.control.setNodeReady(n, 'True');
  const second = await env.sim.listenAlso();
  const clock = new ManualClock();
  const alerts: PolicyAlert[] = [];
  const e = new FleetEngine({ clock, rules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0 } });
  engine = e;
  e.on((ev) => ev.type === 'alert' && alerts.push(ev.alert));
  const admin = env.context('sim-admin');
  e.setContexts([admin, at(admin, 'sim-admin-other-port', second)]);
  await until(
    clock,
    () => e.snapshot().contexts.length === 1 && e.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4,
    'one card',
  );
  expect(e.snapshot().contexts.map((c) => [c.context, c.sameCluster])).toEqual([
    ['sim-admin', ['sim-admin-other-port']],
  ]);
  env.sim.control.setNodeReady('omen2', 'False');
  await until(clock, () => alerts.length > 0, 'the alert');
  clock.advance(60_000);
  expect(alerts.map((a) => [a.kind, a.context])).toEqual([['ready-drop', 'sim-admin']]);
  expect(e.watchedAs('sim-admin-other-port')).toBe('sim-admin');
});

it('a user who may not read namespaces is kept apart by address, with no error on its card', async () => {
  const env = await startSimContext({ scenario: 'homelab' });
  sims.push(env);
  const second = await env.sim.listenAlso();
  const clock = new ManualClock();
  const e = new FleetEngine({ clock });
  engine = e;
  // The read-only user at the sim's first address (its 403 is in that listener's log); admin at the second.
  e.setContexts([env.context('sim-readonly'), at(env.context('sim-admin'), 'sim-admin-other-port', second)]);
  const forbidden = () =>
    env.sim.control
      .requestLog()
      .some(
        (r) => r.path === '/api/v1/namespaces/kube-system' && r.user === 'sim-readonly' && r.status === 403,
      );
  await until(
    clock,
    () =>
      forbidden() &&
      e.snapshot().contexts.every((c) => c.connection.phase === 'live' && c.inventory !== null),
    'both cards live after the 403',
  );
  const cards = e.snapshot().contexts;
  expect(cards.map((c) => [c.context, c.sameCluster, c.connection.message])).toEqual([
    ['sim-readonly', undefined, null],
    ['sim-admin-other-port', undefined, null],
  ]);
});

it('with merging off, contexts on one cluster stay apart (a card and an alert each)', async () => {
  const env = await startSimContext({ scenario: 'homelab' });
  sims.push(env);
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) env.sim.control.setNodeReady(n, 'True');
  const clock = new ManualClock();
  const alerts: PolicyAlert[] = [];
  const e = new FleetEngine({
    clock,
    rules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0 },
    mergeSameCluster: () => false,
  });
  engine = e;
  e.on((ev) => ev.type === 'alert' && alerts.push(ev.alert));
  e.setContexts(['sim-admin', 'sim-readonly'].map((n) => env.context(n)));
  await until(
    clock,
    () => e.snapshot().contexts.every((c) => c.inventory?.ready_gpu_nodes === 4),
    'both first lists',
  );
  expect(e.snapshot().contexts.map((c) => [c.context, c.sameCluster])).toEqual([
    ['sim-admin', undefined],
    ['sim-readonly', undefined],
  ]);
  env.sim.control.setNodeReady('omen2', 'False');
  await until(clock, () => alerts.length > 1, 'the alerts');
  expect(alerts.map((a) => a.context).sort()).toEqual(['sim-admin', 'sim-readonly']);
});

it('says each connection state once: with source auto, "connecting" is one event, then "live"', async () => {
  const env = await startSimContext({ scenario: 'homelab' });
  sims.push(env);
  const clock = new ManualClock();
  const e = new FleetEngine({
    clock,
    source: () => ({ setting: 'auto', namespace: DEFAULT_CONTROLLER_NAMESPACE, group: DEFAULT_CRD_GROUP }),
  });
  engine = e;
  const phases: string[] = [];
  e.on((ev) => ev.type === 'connection' && phases.push(ev.state.phase));
  e.setContexts([env.context('sim-admin')]);
  await until(clock, () => phases.includes('live'), 'live');
  expect(phases).toEqual(['connecting', 'live']);
});

it('shows a flapping node in the snapshot, degraded while it is Ready between flaps, until it settles', async () => {
  const env = await startSimContext({ scenario: 'homelab' });
  sims.push(env);
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) env.sim.control.setNodeReady(n, 'True');
  const clock = new ManualClock();
  const alerts: PolicyAlert[] = [];
  const snapshots: FleetSnapshot[] = [];
  const rules = { ...DEFAULT_ALERT_RULES, holdDownMs: 0 };
  // No telemetry scrapes: on a quiet cluster nothing but the policy would make a snapshot.
  const e = new FleetEngine({
    clock,
    rules,
    telemetry: () => ({ background: 'off', autoMaxGpuNodes: 200, budgetPerMinute: 20 }),
  });
  engine = e;
  e.on((ev) => {
    if (ev.type === 'alert') alerts.push(ev.alert);
    if (ev.type === 'snapshot') snapshots.push(ev.snapshot);
  });
  e.setContexts([env.context('sim-admin')]);
  await until(clock, () => e.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4, 'the first list');
  for (const [i, ready] of (['False', 'True', 'False', 'True'] as const).entries()) {
    clock.advance(150);
    env.sim.control.setNodeReady('omen2', ready);
    const want = ready === 'True' ? 4 : 3;
    await until(clock, () => e.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === want, `flip ${i}`);
  }
  await until(clock, () => alerts.some((a) => a.kind === 'flapping'), 'the flapping alert');
  const now = e.snapshot();
  expect(now.contexts[0]?.flapping).toEqual(['omen2']);
  expect(now.contexts[0]?.inventory?.ready_gpu_nodes).toBe(4);
  expect(now.health).toBe('degraded');

  // Stable for a whole window: no longer flapping, and a snapshot says so without any node event.
  const seen = snapshots.length;
  clock.advance(rules.flapWindowMs + 1_000);
  await until(clock, () => snapshots.length > seen, 'the snapshot after it settled');
  expect(snapshots.at(-1)?.contexts[0]?.flapping).toBeUndefined();
  expect(snapshots.at(-1)?.health).toBe('all-ready');
});
