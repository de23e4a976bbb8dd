// Two controllers in this process against the sim over HTTPS, on one ManualClock with client-go's
// timing (15 s lease, 10 s renew deadline, 2 s retry): one leader writes, the other keeps its cache warm;
// a partitioned leader stops writing before its lease can expire; a stopped leader hands over at once.
import { afterEach, describe, expect, it } from 'vitest';
import { LEASE_FRESH_ANNOTATION } from '../../main/fleet/source/controller-objects.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { CONTROLLER_FIT_LIMITS } from '../../main/writeback/index.ts';
import { type Fleet, LEASE_NAMESPACE, type Replica, startFleet, writerRuns } from './harness.ts';

let fleet: Fleet | null = null;
afterEach(async () => {
  await fleet?.close();
  fleet = null;
});

const leaderOf = (f: Fleet): Replica => {
  const [l] = f.leaders();
  if (!l) throw new Error('no leader');
  return l;
};
const other = (f: Fleet, r: Replica): Replica => f.replicas.find((x) => x !== r) as Replica;
const logged = (r: Replica, prefix: string) => r.logs.filter((l) => l.msg.startsWith(prefix));

/** Virtual time (ms) at which `r` logged its last line starting with `prefix`. */
const loggedAt = (r: Replica, prefix: string): number => {
  const line = logged(r, prefix).at(-1);
  if (!line) throw new Error(`${r.id} never logged "${prefix}"`);
  return Date.parse(line.at);
};

async function electedFleet(): Promise<Fleet> {
  const f = await startFleet();
  fleet = f;
  for (const r of f.replicas) r.controller.start();
  await f.run(20_000, () => f.leaders().length === 1);
  // The leader's first writes (the write-back loops coalesce for 5 s).
  await f.run(30_000, async () => ((await f.status())?.nodes.length ?? 0) > 0);
  return f;
}

describe('controller leader election against the sim', () => {
  /** Status once one of the homelab's GPU nodes (all NotReady there) is Ready again. */
  async function statusWithOneReady(f: Fleet) {
    type Status = {
      nodes: { name: string; ready: boolean }[];
      nodes_omitted?: number;
      total_gpu_nodes: number;
      ready_gpu_nodes: number;
    };
    const first = ((await f.status()) as unknown as Status | undefined)?.nodes[0]?.name;
    if (!first) throw new Error('no node in the status');
    f.s.sim.control.setNodeReady(first, 'True');
    await f.run(30_000, async () => ((await f.status())?.ready_gpu_nodes ?? 0) > 0);
    return (await f.status()) as unknown as Status;
  }

  it('above the scale threshold the leader lists only NotReady nodes, counting the rest as omitted', async () => {
    // The homelab is far below SCALE_GPU_NODES: a threshold of 0 makes it "at scale" (the 30 s write
    // interval at scale is left out: this test is about the list, statusIntervalMs is tested in fit.test.ts).
    const f = await startFleet(undefined, {
      fitLimits: { ...CONTROLLER_FIT_LIMITS, listReadyUpTo: 0, scaleMinIntervalMs: 0 },
    });
    fleet = f;
    for (const r of f.replicas) r.controller.start();
    await f.run(20_000, () => f.leaders().length === 1);
    await f.run(30_000, async () => ((await f.status())?.nodes.length ?? 0) > 0);
    const status = await statusWithOneReady(f);
    expect(status.ready_gpu_nodes).toBeGreaterThan(0);
    expect(status.nodes.every((n) => !n.ready)).toBe(true);
    expect(status.nodes.length).toBe(status.total_gpu_nodes - status.ready_gpu_nodes);
    expect(status.nodes_omitted ?? 0).toBe(status.ready_gpu_nodes);
  });

  it('below it the leader lists every GPU node', async () => {
    const f = await electedFleet();
    const status = await statusWithOneReady(f);
    expect(status.nodes.length).toBe(status.total_gpu_nodes);
    expect(status.nodes.some((n) => n.ready)).toBe(true);
  });

  it('scrapes no DCGM telemetry: the controller lists and watches only the live pods (free GPUs), proxies to none', async () => {
    const f = await electedFleet();
    // The telemetry hub's first background step is due 3 s after start (60 s / 20 nodes a minute).
    await f.run(20_000);
    const pods = f.s.sim.control.requestLog().filter((e) => /\/pods(\/|\?|$)/.test(e.path));
    expect(pods.length).toBeGreaterThan(0);
    for (const e of pods)
      expect(e.path).toMatch(
        /^\/api\/v1\/pods\?.*fieldSelector=status\.phase%21%3DSucceeded%2Cstatus\.phase%21%3DFailed/,
      );
  });

  it('exactly one replica holds the Lease and writes; the other writes nothing', async () => {
    const f = await electedFleet();
    await f.run(12_000);
    const leader = leaderOf(f);
    const follower = other(f, leader);
    const lease = await f.lease();
    expect(lease.spec).toMatchObject({
      holderIdentity: leader.id,
      leaseDurationSeconds: 15,
      leaseTransitions: 0,
    });
    expect(String((lease.spec as { renewTime: string }).renewTime)).toMatch(/\.\d{6}Z$/);
    expect(new Set(f.writers())).toEqual(new Set([leader.user]));
    const agents = new Set(f.s.sim.control.requestLog().map((e) => `${e.user} ${e.userAgent}`));
    expect(agents).toContain(`${leader.user} gpu-fleet-controller (${leader.id})`);
    // The follower never wrote the Lease successfully (at most it lost the first create race).
    const followerLeaseWrites = f.s.sim.control
      .requestLog()
      .filter(
        (e) => e.user === follower.user && /\/leases/.test(e.path) && e.method !== 'GET' && e.status < 300,
      );
    expect(followerLeaseWrites).toEqual([]);
    expect(logged(leader, 'became leader')).toHaveLength(1);
    expect(logged(follower, 'became leader')).toHaveLength(0);
    expect(logged(follower, `leader is now "${leader.id}"`)).toHaveLength(1);
    // Both keep their node cache warm: both are ready.
    expect(leader.controller.readiness()).toBeNull();
    expect(follower.controller.readiness()).toBeNull();
    const metrics = await follower.controller.metrics.text();
    expect(metrics).toMatch(/^gpu_fleet_leader 0$/m);
    expect(await leader.controller.metrics.text()).toMatch(/^gpu_fleet_leader 1$/m);
  });

  it('renews and a hand-over keep the labels and annotations others put on the Lease', async () => {
    const f = await electedFleet();
    const leader = leaderOf(f);
    const path = `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases/gpu-fleet-controller`;
    const tagger = new ContextClient(f.s.context('sim-admin'));
    try {
      const res = await tagger.request('PATCH', path, {
        body: JSON.stringify({ metadata: { labels: { team: 'gpu' }, annotations: { note: 'kept' } } }),
        headers: { 'Content-Type': 'application/merge-patch+json', Accept: 'application/json' },
      });
      expect(res.status).toBe(200);
    } finally {
      tagger.close();
    }
    const meta = async () => (await f.lease()).metadata as Record<string, Record<string, string>>;
    const renewTime = async () => String(((await f.lease()).spec as { renewTime: string }).renewTime);
    // Two renews: the first after a GET (our PATCH moved the resourceVersion), the next from its answer.
    for (let i = 0; i < 2; i++) {
      const before = await renewTime();
      await f.run(5_000, async () => (await renewTime()) !== before);
      expect(await renewTime()).not.toBe(before);
      expect((await f.lease()).spec).toMatchObject({ holderIdentity: leader.id });
      expect((await meta()).labels).toEqual({
        team: 'gpu',
        'app.kubernetes.io/name': 'gpu-fleet',
        'app.kubernetes.io/component': 'controller',
      });
      // Others' annotation stays; ours beside it is only the freshness mark trays read.
      const annotations = (await meta()).annotations ?? {};
      expect(annotations.note).toBe('kept');
      expect(Object.keys(annotations).filter((k) => k !== 'note')).toEqual(
        annotations[LEASE_FRESH_ANNOTATION] === undefined ? [] : [LEASE_FRESH_ANNOTATION],
      );
    }
    // The release and the other replica's acquire are updates too.
    await leader.controller.stop();
    const next = other(f, leader);
    await f.run(5_000, () => next.controller.leading);
    expect((await f.lease()).spec).toMatchObject({ holderIdentity: next.id });
    expect((await meta()).labels).toMatchObject({ team: 'gpu' });
    expect((await meta()).annotations).toMatchObject({ note: 'kept' });
  });

  // Two partitions: the network black-holes the leader's connections (requests hang until the client's
  // timeout), or the API server answers all its calls 503 (the sim's partition control).
  it.each([
    [
      'network black hole',
      (_f: Fleet, r: Replica) => ({ cut: () => r.link.cut(), heal: () => r.link.heal() }),
    ],
    [
      'API calls fail (503)',
      (f: Fleet, r: Replica) => ({
        cut: () => f.s.sim.control.partition(r.user, '503'),
        heal: () => f.s.sim.control.heal(r.user),
      }),
    ],
  ])(
    '%s: a partitioned leader stops writing before its lease expires; the other takes over and reflects a node flip within 20 s',
    async (_how, partition) => {
      const f = await electedFleet();
      const a = leaderOf(f);
      const link = partition(f, a);
      const b = other(f, a);
      const before = await f.status();
      const node = before?.nodes[0];
      if (!node) throw new Error('no GPU node in the scenario');
      const lastRenew = Date.parse(String(((await f.lease()).spec as { renewTime: string }).renewTime));
      const cutAt = f.clock.now();
      link.cut();
      f.s.sim.control.setNodeReady(
        node.name,
        node.ready ? 'False' : 'True',
        'TestFlip',
        'flipped by the test',
      );
      const flipped = async () =>
        (await f.status())?.nodes.find((n) => n.name === node.name)?.ready === !node.ready;
      await f.run(25_000, flipped);
      expect(await flipped()).toBe(true);
      expect(f.clock.now() - cutAt).toBeLessThanOrEqual(20_000);
      expect(b.controller.leading).toBe(true);
      expect(a.controller.leading).toBe(false);
      // The partitioned leader stopped at its renew deadline, before anyone could take its lease.
      const aStopped = loggedAt(a, 'stopped leading');
      const bStarted = loggedAt(b, 'became leader');
      expect(aStopped).toBeLessThanOrEqual(lastRenew + 10_000);
      expect(aStopped).toBeLessThan(lastRenew + 15_000);
      expect(bStarted).toBeGreaterThan(aStopped);
      expect(logged(a, 'stopped leading')[0]?.msg).toContain('renew deadline');
      // Healed, the old leader sees the new one and stays a follower: it never writes again.
      link.heal();
      await f.run(15_000);
      // A change after the heal is written by the new leader alone.
      f.s.sim.control.setNodeReady(node.name, node.ready ? 'True' : 'False', 'TestFlip', 'flipped back');
      await f.run(15_000);
      expect((await f.status())?.nodes.find((n) => n.name === node.name)?.ready).toBe(node.ready);
      expect(a.controller.leading).toBe(false);
      expect(b.controller.leading).toBe(true);
      expect(writerRuns(f.writers())).toEqual([a.user, b.user]);
      expect((await f.lease()).spec).toMatchObject({ holderIdentity: b.id, leaseTransitions: 1 });
    },
    // Real pauses between virtual steps add up on a busy machine; this only bounds a hung run.
    120_000,
  );

  it('a leader that stops releases the lease and the other takes over within 3 s', async () => {
    const f = await electedFleet();
    const a = leaderOf(f);
    const b = other(f, a);
    // Let the follower's retry timer sit at an arbitrary phase.
    await f.run(700);
    const stopAt = f.clock.now();
    const stopping = a.controller.stop();
    await f.run(1000, () => false);
    await stopping;
    expect(logged(a, 'released the lease')).toHaveLength(1);
    const took = await f.run(5_000, () => b.controller.leading);
    expect(b.controller.leading).toBe(true);
    expect(f.clock.now() - stopAt).toBeLessThanOrEqual(3_000);
    expect(took).toBeGreaterThan(0);
    expect((await f.lease()).spec).toMatchObject({ holderIdentity: b.id, leaseTransitions: 1 });
    expect(writerRuns(f.writers())[0]).toBe(a.user);
  });
});
