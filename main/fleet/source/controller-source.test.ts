/**
 * The tray reading the in-cluster controller, against the sim over real HTTPS. A stand-in writes what the
 * controller's leader would (test/helpers/controller-writer.ts: the Lease, renewed by update, and the
 * GpuInventory status by server-side apply) as another user (sim-revocable), so the request log tells
 * the tray's requests (sim-admin, sim-readonly) apart. Engine time is a ManualClock; real time is only
 * waited for the sim's answers.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../../common/alert-rules.ts';
import type { ContextSnapshot } from '../../../common/fleet.ts';
import type { GpuInventoryStatus, GpuNodeEntry } from '../../../common/inventory.ts';
import type { InventorySource } from '../../../common/settings.ts';
import { LeaderStandIn } from '../../../test/helpers/controller-writer.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../../test/helpers/sim-context.ts';
import { LEFT_THE_CLUSTER } from '../../alerts/text.ts';
import type { PolicyAlert } from '../../alerts/types.ts';
import { eventLine } from '../../cli/commands/watch.ts';
import { ContextClient } from '../../kube/context-client.ts';
import { DEFAULT_FIT_LIMITS } from '../../writeback/fit.ts';
import { WritebackHub } from '../../writeback/hub.ts';
import { fitStatus } from '../../writeback/status-writer.ts';
import { type EngineEvent, FleetEngine } from '../engine.ts';
import { HANDOVER_POLL_MS } from './controller-feed.ts';
import { LEASE_POLL_MS } from './lease-poll.ts';
import { HANDOVER_MS } from './source-policy.ts';

const NODES = ['nuc1', 'nuc2', 'omen', 'omen2'];
let env: SimContext;
let engine: FleetEngine | null = null;
let writer: ContextClient | null = null;

beforeEach(async () => {
  env = await startSimContext({ scenario: 'homelab' });
  for (const n of NODES) env.sim.control.setNodeReady(n, 'True');
});
afterEach(async () => {
  engine?.stop();
  engine = null;
  writer?.close();
  writer = null;
  await env.cleanup();
});

const until = (clock: ManualClock, check: () => boolean, what: string) =>
  pollUntil(check, what, { each: () => clock.advance(0) });

function status(notReady: string[] = [], at = '2026-11-29T12:00:00Z'): GpuInventoryStatus {
  const nodes: GpuNodeEntry[] = NODES.map((name) => ({
    name,
    ready: !notReady.includes(name),
    product: 'NVIDIA-GeForce-RTX-4070-Laptop-GPU',
    count: 1,
    memory: 8188,
    workload: 'container',
  }));
  return {
    observed_at: at,
    total_gpu_nodes: 4,
    ready_gpu_nodes: 4 - notReady.length,
    total_gpus: 4,
    nodes,
    nodes_compacted: true,
  };
}

async function standIn(clock: ManualClock): Promise<LeaderStandIn> {
  writer = new ContextClient(env.context('sim-revocable'));
  const leader = new LeaderStandIn(writer);
  await leader.setUp(clock.now());
  await leader.writeStatus(status());
  return leader;
}

function start(clock: ManualClock, setting: InventorySource, context = 'sim-admin', holdDownMs = 0) {
  const events: EngineEvent[] = [];
  const e = new FleetEngine({
    clock,
    rules: { ...DEFAULT_ALERT_RULES, holdDownMs },
    source: () => ({ setting, namespace: 'gpu-fleet', group: 'gpufleet.io' }),
  });
  engine = e;
  e.on((ev) => events.push(ev));
  startedAt = clock.now();
  e.setContexts([env.context(context)]);
  const ctx = (): ContextSnapshot => e.snapshot().contexts[0] as ContextSnapshot;
  const alerts = () => events.flatMap((ev) => (ev.type === 'alert' ? [ev.alert] : [])) as PolicyAlert[];
  return { e, events, ctx, alerts };
}
/** When the engine was started: the tray reads the Lease then and every LEASE_POLL_MS after. */
let startedAt = 0;
const toNextPoll = (clock: ManualClock) => LEASE_POLL_MS - ((clock.now() - startedAt) % LEASE_POLL_MS);

const nodeRequests = (user: string) =>
  env.sim.control.requestLog().filter((r) => r.user === user && r.path.startsWith('/api/v1/nodes'));

/**
 * Renews the Lease at the clock's now, moves the clock to the tray's next Lease poll and waits until
 * the tray has seen that renewal (counted on its clock from the poll that read it).
 */
async function renew(clock: ManualClock, leader: LeaderStandIn, ctx: () => ContextSnapshot) {
  const before = ctx().source?.renewedAt;
  await leader.renew(clock.now());
  clock.advance(toNextPoll(clock));
  await until(clock, () => ctx().source?.renewedAt !== before, 'the renewal');
}

const leaseReads = (user: string) =>
  env.sim.control.requestLog().filter((r) => r.user === user && r.path.includes('/leases'));

it('auto reads the controller when its Lease is fresh, and never lists nodes', async () => {
  const clock = new ManualClock();
  await standIn(clock);
  const { ctx, events } = start(clock, 'auto');
  await until(
    clock,
    () => ctx().source?.active === 'controller' && ctx().inventory !== null,
    'the controller',
  );
  expect(ctx().inventory?.ready_gpu_nodes).toBe(4);
  expect(ctx().source).toMatchObject({
    setting: 'auto',
    active: 'controller',
    message: null,
    compacted: true,
  });
  expect(ctx().source?.holder).toBe('controller-0');
  expect(ctx().stale).toBe(false);
  expect(nodeRequests('sim-admin')).toEqual([]);
  // `watch -o json` names the source on every inventory line.
  const line = events.find((ev) => ev.type === 'inventory');
  expect(line && JSON.parse(eventLine(line) ?? '{}')).toMatchObject({
    type: 'inventory',
    source: 'controller',
  });
});

it('a blind leader that keeps renewing but whose freshness mark stops: auto falls back to nodes, saying why', async () => {
  const clock = new ManualClock();
  const leader = await standIn(clock);
  const { ctx } = start(clock, 'auto');
  await until(clock, () => ctx().source?.active === 'controller', 'the controller');
  clock.advance(2000);
  // The Lease keeps being renewed (its election loop works); the mark stays where its watch failed.
  const frozen = clock.now();
  for (let i = 0; i < 3; i++) {
    const before = ctx().source?.renewedAt;
    await leader.renew(clock.now(), undefined, undefined, frozen);
    clock.advance(toNextPoll(clock));
    await until(clock, () => ctx().source?.renewedAt !== before, 'the renewal');
  }
  expect(ctx().source?.active).toBe('controller');
  for (let i = 0; i < 2 && ctx().source?.active === 'controller'; i++) {
    const before = ctx().source?.renewedAt;
    await leader.renew(clock.now(), undefined, undefined, frozen);
    clock.advance(toNextPoll(clock));
    await until(clock, () => ctx().source?.renewedAt !== before, 'the renewal');
  }
  expect(clock.now() - frozen).toBeGreaterThanOrEqual(30_000);
  expect(ctx().source?.active).toBe('nodes');
  expect(ctx().source?.message).toMatch(
    /has not known its status to be current for \d+ s \(its node watch or its writes are failing; more than 2 × 15 s\); watching nodes directly\./,
  );
});

it('auto falls back to nodes within 40 s when the controller stops renewing, and comes back without flapping', async () => {
  const clock = new ManualClock();
  const leader = await standIn(clock);
  const { ctx, events } = start(clock, 'auto');
  await until(clock, () => ctx().source?.active === 'controller', 'the controller');
  clock.advance(2000); // a renewal at the set-up's own time would not change renewTime
  for (let i = 0; i < 3; i++) await renew(clock, leader, ctx);
  // The last renewal comes just after a poll: the tray sees it only at the next one, LEASE_POLL_MS later.
  const lastRenew = clock.now();
  await renew(clock, leader, ctx);
  expect(clock.now() - lastRenew).toBe(LEASE_POLL_MS);
  clock.advance(29_000);
  expect(ctx().source?.active).toBe('controller');
  clock.advance(1000); // 40 s after the last renewal: 2 × 15 s stale + one poll
  expect(ctx().source?.active).toBe('nodes');
  expect(ctx().source?.message).toMatch(
    /stopped renewing its Lease \(last renewed 30 s ago, more than 2 × 15 s\); watching nodes directly\./,
  );
  expect(clock.now() - lastRenew).toBe(40_000);
  // The Lease was read, never watched: one GET per poll.
  const reads = leaseReads('sim-admin');
  expect(reads.every((r) => r.method === 'GET' && !r.path.includes('watch'))).toBe(true);
  expect(reads.length).toBeLessThanOrEqual((clock.now() - startedAt) / LEASE_POLL_MS + 1);
  await until(clock, () => ctx().stale === false && nodeRequests('sim-admin').length > 0, 'the node list');
  const fromNodes = events.filter((ev) => ev.type === 'inventory').at(-1);
  expect(fromNodes && JSON.parse(eventLine(fromNodes) ?? '{}')).toMatchObject({
    source: 'nodes',
    ready_gpu_nodes: 4,
  });

  // The controller is back: the tray waits for a steady Lease (and a minimum time on nodes).
  const fellBackAt = lastRenew + 40_000;
  await renew(clock, leader, ctx);
  expect(ctx().source?.active).toBe('nodes');
  expect(ctx().source?.message).toMatch(/controller is back/);
  while (clock.now() - fellBackAt < 50_000) {
    await renew(clock, leader, ctx);
    expect(ctx().source?.active).toBe('nodes');
  }
  await renew(clock, leader, ctx);
  expect(ctx().source?.active).toBe('controller');
  expect(ctx().source?.message).toBeNull();
});

it('a released Lease taken by a new holder within HANDOVER_MS (a rollout) keeps the controller: no node requests', async () => {
  const clock = new ManualClock();
  const leader = await standIn(clock);
  const { ctx } = start(clock, 'auto');
  await until(clock, () => ctx().source?.active === 'controller', 'the controller');
  clock.advance(2000);
  await renew(clock, leader, ctx);
  // The old pod releases just before a poll; the new one takes the Lease 3 s after the tray saw that.
  await leader.release(clock.now());
  const polls = leaseReads('sim-admin').length;
  clock.advance(toNextPoll(clock));
  await until(
    clock,
    () => leaseReads('sim-admin').length > polls && ctx().source?.holder === null,
    'the release',
  );
  const sawRelease = clock.now();
  clock.advance(3000);
  await leader.renew(clock.now(), 'controller-1');
  clock.advance(HANDOVER_POLL_MS);
  await until(clock, () => ctx().source?.holder === 'controller-1', 'the new holder');
  expect(clock.now() - sawRelease).toBeLessThan(HANDOVER_MS);
  clock.advance(HANDOVER_MS + LEASE_POLL_MS);
  expect(ctx().source).toMatchObject({ active: 'controller', message: null });
  expect(nodeRequests('sim-admin')).toEqual([]);
});

it('a released Lease nobody takes: auto falls back HANDOVER_MS after it saw the release, and says why', async () => {
  const clock = new ManualClock();
  const leader = await standIn(clock);
  const { ctx } = start(clock, 'auto');
  await until(clock, () => ctx().source?.active === 'controller', 'the controller');
  clock.advance(2000);
  await leader.release(clock.now());
  clock.advance(toNextPoll(clock));
  await until(clock, () => ctx().source?.holder === null, 'the release');
  const sawRelease = clock.now();
  // While it waits, the tray reads the Lease every HANDOVER_POLL_MS (or at its regular tick, if sooner).
  // The sim logs a read once it has sent the answer, before the tray has handled it and armed its next
  // read: each step waits for that timer too, else the next advance could pass before it exists.
  while (clock.now() - sawRelease + HANDOVER_POLL_MS < HANDOVER_MS) {
    const polls = leaseReads('sim-admin').length;
    clock.advance(HANDOVER_POLL_MS);
    const nextRead = clock.now() + Math.min(HANDOVER_POLL_MS, toNextPoll(clock));
    const armed = clock.dueAt(nextRead);
    await until(clock, () => leaseReads('sim-admin').length > polls, 'a sooner poll');
    await until(clock, () => clock.dueAt(nextRead) > armed, 'the tray to arm its next read');
    expect(ctx().source?.active).toBe('controller');
  }
  clock.advance(HANDOVER_MS - 1 - (clock.now() - sawRelease));
  expect(ctx().source?.active).toBe('controller');
  expect(nodeRequests('sim-admin')).toEqual([]);
  clock.advance(1);
  expect(ctx().source?.active).toBe('nodes');
  expect(clock.now() - sawRelease).toBe(HANDOVER_MS);
  expect(ctx().source?.message).toBe(
    'The in-cluster controller released its Lease and no new holder took it within 15 s; watching nodes directly.',
  );
  await until(clock, () => nodeRequests('sim-admin').length > 0, 'the node list');
});

it('auto watches nodes when reading the Lease is forbidden (403), and says so', async () => {
  const clock = new ManualClock();
  await standIn(clock);
  const { ctx, events } = start(clock, 'auto', 'sim-readonly');
  await until(clock, () => ctx().source?.active === 'nodes', 'the fall-back');
  expect(ctx().source?.message).toBe(
    'The controller Lease gpu-fleet-controller in namespace gpu-fleet cannot be read (forbidden, 403); watching nodes directly.',
  );
  await until(clock, () => ctx().inventory?.ready_gpu_nodes === 4 && !ctx().stale, 'the node list');
  const line = events.find((ev) => ev.type === 'inventory');
  expect(line && JSON.parse(eventLine(line) ?? '{}')).toMatchObject({ source: 'nodes' });
});

it('source controller never watches nodes: a stale Lease is a named state', async () => {
  const clock = new ManualClock();
  await standIn(clock);
  const { ctx } = start(clock, 'controller');
  await until(clock, () => ctx().source?.active === 'controller', 'the controller');
  clock.advance(31_000);
  expect(ctx().source?.active).toBeNull();
  expect(ctx().source?.message).toMatch(
    /stopped renewing its Lease.*the source is set to controller, so nodes are not watched\./,
  );
  expect(ctx().stale).toBe(true);
  expect(nodeRequests('sim-admin')).toEqual([]);
});

it('alerts fire the same from the controller as from nodes: drop after the hold-down, then recovery', async () => {
  const clock = new ManualClock();
  const leader = await standIn(clock);
  const { ctx, alerts } = start(clock, 'auto', 'sim-admin', 30_000);
  await until(
    clock,
    () => ctx().source?.active === 'controller' && ctx().inventory !== null,
    'the controller',
  );
  await leader.writeStatus(status(['omen2'], '2026-11-29T12:00:05Z'));
  await until(clock, () => ctx().inventory?.ready_gpu_nodes === 3, 'the drop in the GpuInventory');
  clock.advance(29_000);
  expect(alerts()).toEqual([]);
  clock.advance(1000);
  expect(alerts()).toHaveLength(1);
  const fromController = alerts()[0];
  expect(fromController).toMatchObject({ kind: 'ready-drop', nodes: ['omen2'], before: 4, after: 3 });
  await renew(clock, leader, ctx);
  await leader.writeStatus(status([], '2026-11-29T12:00:40Z'));
  await until(clock, () => alerts().length === 2, 'the recovery');
  expect(alerts()[1]).toMatchObject({ kind: 'recovered', nodes: ['omen2'], after: 4 });

  // The same flip seen by watching nodes gives the same alert.
  engine?.stop();
  const nodes = start(clock, 'nodes', 'sim-admin', 30_000);
  await until(
    clock,
    () => nodes.ctx().inventory?.ready_gpu_nodes === 4 && !nodes.ctx().stale,
    'the node list',
  );
  env.sim.control.setNodeReady('omen2', 'False');
  await until(clock, () => nodes.ctx().inventory?.ready_gpu_nodes === 3, 'the node flip');
  clock.advance(30_000);
  expect(nodes.alerts()).toHaveLength(1);
  expect(nodes.alerts()[0]).toMatchObject({
    kind: fromController?.kind,
    nodes: fromController?.nodes,
    before: fromController?.before,
    after: fromController?.after,
  });
});

it('does not write back while it reads the controller (the controller writes), and says so', async () => {
  const clock = new ManualClock();
  const leader = await standIn(clock);
  const { e, ctx } = start(clock, 'auto');
  const hub = new WritebackHub(e, { clock });
  try {
    hub.set([env.context('sim-admin')], () => ({
      group: 'gpufleet.io',
      configMapNamespace: 'kube-system',
      minIntervalMs: 0,
    }));
    await until(
      clock,
      () => ctx().source?.active === 'controller' && ctx().inventory !== null,
      'the controller',
    );
    await leader.writeStatus(status(['nuc2'], '2026-11-29T12:00:09Z'));
    await until(clock, () => ctx().inventory?.ready_gpu_nodes === 3, 'the new status');
    for (let i = 0; i < 5; i++) clock.advance(1000);
    expect(ctx().source?.writebackPaused).toBe(true);
    expect(ctx().writeback.phase).toBe('off');
    const writes = env.sim.control.requestLog().filter((r) => r.user === 'sim-admin' && r.method !== 'GET');
    expect(writes).toEqual([]);
  } finally {
    hub.stop();
  }
});

it('a status listing only NotReady nodes (the controller at scale): drop, recovery, and a node that left', async () => {
  const clock = new ManualClock();
  const leader = await standIn(clock);
  // What the controller writes above SCALE_GPU_NODES, here with the threshold at 0.
  const scaled = (s: GpuInventoryStatus) => fitStatus(s, DEFAULT_FIT_LIMITS.statusBytes, 0);
  await leader.writeStatus(scaled(status()));
  const { ctx, alerts } = start(clock, 'auto', 'sim-admin', 30_000);
  await until(clock, () => ctx().inventory?.nodes_omitted === 4, 'the NotReady-only list');
  await leader.writeStatus(scaled(status(['omen2'], '2026-11-29T12:00:05Z')));
  await until(clock, () => ctx().inventory?.ready_gpu_nodes === 3, 'the drop');
  expect(ctx().inventory?.nodes.map((n) => n.name)).toEqual(['omen2']);
  // The Lease is renewed within the hold-down, or it would go stale (2 × 15 s) and the tray fall back.
  clock.advance(19_000);
  await renew(clock, leader, ctx);
  clock.advance(9000);
  expect(alerts()).toEqual([]);
  clock.advance(1000);
  expect(alerts().map((a) => [a.kind, a.nodes, a.before, a.after])).toEqual([
    ['ready-drop', ['omen2'], 4, 3],
  ]);

  await renew(clock, leader, ctx);
  await leader.writeStatus(scaled(status([], '2026-11-29T12:00:40Z')));
  await until(clock, () => alerts().length === 2, 'the recovery');
  expect(alerts()[1]).toMatchObject({ kind: 'recovered', nodes: ['omen2'], before: 3, after: 4 });

  // omen goes NotReady and is deleted within the hold-down: the total falls, it left the cluster.
  await leader.writeStatus(scaled(status(['omen'], '2026-11-29T12:00:45Z')));
  await until(clock, () => ctx().inventory?.ready_gpu_nodes === 3, 'the second drop');
  const gone = { ...scaled(status([], '2026-11-29T12:00:50Z')), total_gpu_nodes: 3, ready_gpu_nodes: 3 };
  await leader.writeStatus({ ...gone, total_gpus: 3, nodes_omitted: 3 });
  await until(clock, () => ctx().inventory?.total_gpu_nodes === 3, 'the deletion');
  clock.advance(19_000);
  await renew(clock, leader, ctx);
  clock.advance(10_000);
  expect(alerts()).toHaveLength(3);
  expect(alerts()[2]).toMatchObject({ kind: 'ready-drop', nodes: ['omen'], before: 4, after: 3 });
  expect(alerts()[2]?.body).toContain(LEFT_THE_CLUSTER);
});
